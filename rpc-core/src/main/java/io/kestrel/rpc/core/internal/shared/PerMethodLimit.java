package io.kestrel.rpc.core.internal.shared;

import io.kestrel.rpc.api.ServerBusyException;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * At most {@code max} calls of each method at once: the counting that a reference's {@code actives}
 * and a service's {@code executes} both do. A call counts until its future completes.
 */
final class PerMethodLimit {
    private final int max;
    private final Map<Method, AtomicInteger> counts = new ConcurrentHashMap<>();

    PerMethodLimit(int max) {
        this.max = max;
    }

    int max() {
        return max;
    }

    /**
     * Runs {@code call} when {@code method} is under the limit; otherwise fails at once with a
     * {@link ServerBusyException} carrying {@code refusal}'s message, without running it.
     */
    CompletableFuture<Object> run(Method method, Supplier<CompletableFuture<Object>> call, Supplier<String> refusal) {
        AtomicInteger count = counts.computeIfAbsent(method, m -> new AtomicInteger());
        if (count.incrementAndGet() > max) {
            count.decrementAndGet();
            return CompletableFuture.failedFuture(new ServerBusyException(refusal.get()));
        }
        CompletableFuture<Object> result;
        try {
            result = call.get();
        } catch (RuntimeException | Error e) {
            count.decrementAndGet();
            throw e;
        }
        return result.whenComplete((v, e) -> count.decrementAndGet());
    }
}
