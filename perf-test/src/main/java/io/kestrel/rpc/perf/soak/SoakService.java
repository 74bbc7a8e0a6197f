package io.kestrel.rpc.perf.soak;

import java.util.concurrent.CompletableFuture;

/**
 * The extra service of the soak mode ({@link SoakMain}), exported next to {@link BenchmarkService}
 * by the soak server ({@link SoakServer}). Kept apart so that the benchmark's interface, which every
 * system serves, does not change. Asynchronous on both sides: the consumer's proxy returns at once,
 * the provider answers when the future completes.
 */
public interface SoakService {
    /**
     * Whether an entity with this id exists (even ids do), answered {@code delayMillis} after the call
     * (0: at once) from the provider's timer thread rather than its business thread. With a delay
     * beyond the consumer's timeout this provokes a client-side timeout and a late answer.
     */
    CompletableFuture<Boolean> existsLater(long id, int delayMillis);
}
