package io.kestrel.rpc.core.internal;

import io.kestrel.rpc.api.ServerBusyException;
import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A reference's {@code actives}: at most that many calls of one method in flight from this consumer;
 * a call beyond it fails at once, unsent, with {@link ServerBusyException}. One per reference.
 */
final class ActivesInterceptor implements ClientInterceptor {
    private final int max;
    private final Map<Method, AtomicInteger> inFlight = new ConcurrentHashMap<>();

    ActivesInterceptor(int max) {
        this.max = max;
    }

    @Override
    public CompletableFuture<Object> intercept(Chain chain) {
        AtomicInteger count = inFlight.computeIfAbsent(chain.call().method(), m -> new AtomicInteger());
        if (count.incrementAndGet() > max) {
            count.decrementAndGet();
            return CompletableFuture.failedFuture(new ServerBusyException(chain.call().displayName() + " was not sent: "
                    + max + " calls of it are in flight from this consumer, its limit (actives=\"" + max
                    + "\" on the reference); raise it or slow the callers down"));
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
        return "actives(" + max + ")";
    }
}
