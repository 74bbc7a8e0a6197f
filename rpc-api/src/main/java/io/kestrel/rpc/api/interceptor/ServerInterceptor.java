package io.kestrel.rpc.api.interceptor;

import java.util.concurrent.CompletableFuture;

/**
 * Provider-side interceptor: runs around every invocation of the services it is registered for,
 * after the arguments were decoded, before the service method runs.
 *
 * <pre>{@code
 * public final class AuthInterceptor implements ServerInterceptor {
 *     public CompletableFuture<Object> intercept(Chain chain) {
 *         if (!tokens.valid(chain.call().requestAttachments().get("token"))) {
 *             return CompletableFuture.failedFuture(new SecurityException("bad token"));
 *         }
 *         return chain.proceed();
 *     }
 * }
 * }</pre>
 *
 * <p><b>Result.</b> Blocking and asynchronous methods alike, the chain's result is a
 * {@code CompletableFuture} of the method's value (already complete for a blocking method); it
 * completes exceptionally with what the service threw. Returning a future that was not derived from
 * {@code proceed()} short-circuits: the service does not run and the consumer receives that value,
 * or that exception as if the service had thrown it (an {@link io.kestrel.rpc.api.ServerBusyException}
 * is answered as "server busy", which failover may retry: the call did not run). Response
 * attachments put in {@link ServerCallInfo#responseAttachments()} before the future completes are
 * sent with the answer.
 *
 * <p><b>Threads.</b> {@code intercept} runs on the business thread that serves the call (the I/O
 * thread when the protocol's {@code threads} is 0), with the call's {@link io.kestrel.rpc.api.RpcContext}
 * in place; outgoing calls made there get the caller's remaining deadline. Callbacks on the future
 * run where the service's result completes (the same thread for a blocking method).
 *
 * <p><b>Errors.</b> An interceptor that throws instead of returning a future (or returns null) makes
 * the provider answer the call with a server error naming the interceptor ({@link #name()}); the
 * consumer receives it as an {@link io.kestrel.rpc.api.RpcException}. The call is answered either way.
 *
 * <p><b>Order and registration</b> as for {@link ClientInterceptor}: ascending {@link #order()},
 * runtime-wide ones ({@code RpcRuntime.builder().serverInterceptor(...)}, ServiceLoader, Spring beans)
 * before the service's own ({@code ServiceConfig.builder(...).interceptor(...)}). Thread-safe.
 */
@FunctionalInterface
public interface ServerInterceptor {
    /**
     * Intercepts one invocation.
     *
     * @return the call's future: usually {@code chain.proceed()} or derived from it; never null
     */
    CompletableFuture<Object> intercept(Chain chain);

    /** Position in the chain: lower runs first (outermost). Default 0. */
    default int order() {
        return 0;
    }

    /** The name used in error messages and logs. Default: the class name. */
    default String name() {
        return getClass().getName();
    }

    /** The rest of the chain, for one invocation. */
    interface Chain {
        /** The call. */
        ServerCallInfo call();

        /** Runs the next interceptors and then the service method; returns its future. */
        CompletableFuture<Object> proceed();
    }
}
