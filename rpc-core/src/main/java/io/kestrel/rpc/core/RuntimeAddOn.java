package io.kestrel.rpc.core;

import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import java.util.List;

/**
 * Something attached to a runtime from outside that lives as long as the runtime, such as the web console
 * ({@code io.kestrel:rpc-console}). Given to {@link RpcRuntime.Builder#addOn}: its interceptors join the runtime's
 * (after the builder's and the service-loaded ones), it is started once the runtime is built (a failure closes the
 * runtime and fails {@code build()}), and it is closed first when the runtime closes, before services unregister.
 * It reads the runtime through {@link RpcRuntime#inspect()}. One add-on serves one runtime.
 */
public interface RuntimeAddOn extends AutoCloseable {
    /** Interceptors run around every call of the runtime's references. Default none. */
    default List<ClientInterceptor> clientInterceptors() {
        return List.of();
    }

    /** Interceptors run around every invocation of the runtime's services. Default none. */
    default List<ServerInterceptor> serverInterceptors() {
        return List.of();
    }

    /**
     * Starts serving {@code runtime}, once it is built.
     *
     * @throws RuntimeException to fail the runtime's {@code build()} (the runtime is closed first)
     */
    void start(RpcRuntime runtime);

    /** Stops; called when the runtime closes, also when its build failed (started or not). Idempotent. */
    @Override
    void close();
}
