package io.kestrel.rpc.console;

import io.kestrel.rpc.api.config.ConsoleConfig;
import io.kestrel.rpc.console.internal.Console;
import io.kestrel.rpc.core.RuntimeConsole;

/**
 * Creates the web console of a runtime whose {@link ConsoleConfig} is enabled; listed in
 * {@code META-INF/services}, so having {@code io.kestrel:rpc-console} on the class path is all it takes.
 */
public final class KestrelConsoleFactory implements RuntimeConsole.Factory {
    @Override
    public RuntimeConsole create(ConsoleConfig config) {
        return new Console(config);
    }
}
