package io.kestrel.rpc.console.internal;

import java.util.Map;

/** Calls a method through generic invocation for the invoke form, and describes methods for the form. */
class ConsoleInvoker {
    Map<String, Object> methods(String service) {
        throw new UnsupportedOperationException("generic invocation is not in this build");
    }

    Map<String, Object> invoke(Map<String, Object> body) {
        throw new UnsupportedOperationException("generic invocation is not in this build");
    }
}
