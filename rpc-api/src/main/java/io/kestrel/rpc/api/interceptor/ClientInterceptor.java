package io.kestrel.rpc.api.interceptor;

import java.util.concurrent.CompletableFuture;

/**
 * Consumer-side interceptor: runs around every call of the references it is registered for, before
 * the cluster chooses a provider (so one call that failover retries passes an interceptor once).
 *
 * <pre>{@code
 * public final class TenantInterceptor implements ClientInterceptor {
 *     public CompletableFuture<Object> intercept(Chain chain) {
 *         chain.call().requestAttachments().put("tenant", Tenants.current());
 *         long start = System.nanoTime();
 *         return chain.proceed().whenComplete((value, error) ->
 *                 log.debug("{} took {} us", chain.call().displayName(), (System.nanoTime() - start) / 1000));
 *     }
 * }
 * }</pre>
 *
 * <p><b>Result.</b> Blocking and asynchronous methods alike, the chain's result is a
 * {@code CompletableFuture} of the method's value (null for {@code void}); it completes
 * exceptionally with what the caller will get (an {@link io.kestrel.rpc.api.RpcException} or the
 * exception the service threw). An interceptor returns {@code chain.proceed()}, a future derived
 * from it (to wrap or replace the value or the error), or, to short-circuit without calling the
 * provider, its own future ({@code CompletableFuture.completedFuture(value)},
 * {@code CompletableFuture.failedFuture(error)}). It may call {@code proceed()} more than once
 * (each call is sent again).
 *
 * <p><b>Threads.</b> {@code intercept} runs on the thread that called the proxy method. For a
 * blocking method, the future returned by {@code proceed()} completes on that thread too, once it
 * waits for the answer (callbacks attached to it run before the method returns). For an asynchronous
 * method, or when the interceptor waits for that future inside {@code intercept}, it may complete on
 * a Netty I/O thread: callbacks attached to it must be short and must never block (record a figure,
 * end a span); use the {@code *Async} variants with your own executor for anything else. The caller's own future (for asynchronous methods) still
 * completes on the runtime's callback executor.
 *
 * <p><b>Errors.</b> An interceptor that throws instead of returning a future fails the call with an
 * {@link InterceptorException} naming it (its {@link #name()}), whose cause is what it threw; a call
 * it had sent already is still answered or timed out and never left pending. A null future is
 * treated the same way.
 *
 * <p><b>Order.</b> Interceptors run in ascending {@link #order()}; among equal orders, the runtime's
 * (programmatic, then ServiceLoader, then Spring beans) before the reference's, each in registration
 * order. The first is outermost: it sees the call first and its result last.
 *
 * <p><b>Registration.</b> {@code RpcRuntime.builder().clientInterceptor(...)} (every reference of the
 * runtime), {@code ReferenceConfig.builder(...).interceptor(...)} (one reference), a
 * {@code META-INF/services/io.kestrel.rpc.api.interceptor.ClientInterceptor} entry (public no-arg
 * constructor; every runtime that loads extensions), or a Spring bean of this type. Implementations
 * are shared by all calls of many threads: they must be thread-safe.
 */
@FunctionalInterface
public interface ClientInterceptor {
    /**
     * Intercepts one call.
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

    /** The rest of the chain, for one call. */
    interface Chain {
        /** The call. */
        ClientCallInfo call();

        /** Runs the next interceptors and then sends the call; returns its future at once. */
        CompletableFuture<Object> proceed();
    }
}
