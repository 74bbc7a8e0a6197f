package io.kestrel.rpc.core.internal;

import io.kestrel.rpc.api.ServerBusyException;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A service's {@code executes}: at most that many invocations of one method running at once on this
 * provider; a call beyond it is answered "server busy" without running, so failover may send it to
 * another provider. One per service; a call counts until its result (for asynchronous methods, its
 * future) completes.
 */
final class ExecutesInterceptor implements ServerInterceptor {
    private final int max;
    private final Map<Method, AtomicInteger> running = new ConcurrentHashMap<>();

    ExecutesInterceptor(int max) {
        this.max = max;
    }

    @Override
    public CompletableFuture<Object> intercept(Chain chain) {
        AtomicInteger count = running.computeIfAbsent(chain.call().method(), m -> new AtomicInteger());
        if (count.incrementAndGet() > max) {
            count.decrementAndGet();
            return CompletableFuture.failedFuture(new ServerBusyException(chain.call().displayName() + " is running "
                    + max + " times on this provider, its limit (executes=\"" + max + "\" on the service); not run"));
        }
        CompletableFuture<Object> result;
        try {
            result = chain.proceed();
        } catch (RuntimeException | Error e) {
            count.decrementAndGet();
            throw e;
        }
        return result.whenComplete((v, e) -> count.decrementAndGet());
    }

    @Override
    public int order() {
        return Interceptors.LIMIT_ORDER;
    }

    @Override
    public String name() {
        return "executes(" + max + ")";
    }
}
