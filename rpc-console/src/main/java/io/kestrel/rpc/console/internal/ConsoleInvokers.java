package io.kestrel.rpc.console.internal;

import io.kestrel.rpc.core.RpcRuntime;

/** The invoker of the console's invoke form for a runtime. */
final class ConsoleInvokers {
    private ConsoleInvokers() {
    }

    static ConsoleInvoker create(RpcRuntime runtime) {
        return new ConsoleInvoker();
    }
}
