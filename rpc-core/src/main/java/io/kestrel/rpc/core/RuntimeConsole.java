package io.kestrel.rpc.core;

import io.kestrel.rpc.api.config.ConsoleConfig;
import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;

/**
 * SPI: the web console a runtime serves when its {@link ConsoleConfig} is enabled. Implemented by the artifact
 * {@code io.kestrel:rpc-console}, found with {@link java.util.ServiceLoader} through {@link Factory}; a runtime
 * without it on the class path runs as before, and one configured with the console enabled fails to build,
 * naming the artifact. The runtime adds the console's interceptors (its live call figures), starts it once
 * built and closes it first when it closes.
 */
public interface RuntimeConsole extends AutoCloseable {
    /** Listed in {@code META-INF/services/io.kestrel.rpc.core.RuntimeConsole$Factory}. */
    interface Factory {
        RuntimeConsole create(ConsoleConfig config);
    }

    /** Counts the calls of the runtime's references. */
    ClientInterceptor clientInterceptor();

    /** Counts the calls the runtime's services serve. */
    ServerInterceptor serverInterceptor();

    /**
     * Binds the admin port and serves the runtime's views.
     *
     * @throws io.kestrel.rpc.api.TransportException if the port cannot be bound
     */
    void start(RpcRuntime runtime);

    /**
     * One of the console's JSON documents as plain maps, lists, strings, numbers and booleans: {@code overview},
     * {@code services}, {@code registry}, {@code connections} or {@code calls} (what its pages show; for an
     * actuator endpoint).
     *
     * @throws IllegalArgumentException for another name
     */
    java.util.Map<String, Object> document(String name);

    /** The bound port (after {@link #start}). */
    int port();

    /** Stops serving. Idempotent. */
    @Override
    void close();
}
