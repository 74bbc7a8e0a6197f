package io.kestrel.rpc.core.internal.shared;

import io.kestrel.rpc.api.config.ConsoleConfig;
import io.kestrel.rpc.core.RuntimeConsole;
import java.util.Iterator;
import java.util.ServiceLoader;

/** Finds the console implementation ({@code io.kestrel:rpc-console}) when a runtime's console is enabled. */
public final class Consoles {
    private Consoles() {
    }

    /** The console for {@code config}, or null when it is disabled. */
    public static RuntimeConsole create(ConsoleConfig config) {
        if (!config.enabled()) {
            return null;
        }
        ClassLoader tccl = Thread.currentThread().getContextClassLoader();
        Iterator<RuntimeConsole.Factory> found = ServiceLoader.load(RuntimeConsole.Factory.class,
                tccl != null ? tccl : Consoles.class.getClassLoader()).iterator();
        if (!found.hasNext()) {
            found = ServiceLoader.load(RuntimeConsole.Factory.class, Consoles.class.getClassLoader()).iterator();
        }
        if (!found.hasNext()) {
            throw new IllegalStateException("The web console is enabled (rpc.console.enabled=true,"
                    + " RpcRuntime.builder().console(..)) but its artifact io.kestrel:rpc-console is not on the class"
                    + " path: add that dependency, or turn the console off");
        }
        return found.next().create(config);
    }
}
