package io.kestrel.rpc.core.internal.consumer;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;

/**
 * The runtime's own executor for the futures of asynchronous methods, used unless the application names one.
 *
 * <p>Not the common fork-join pool: on a machine or container with two CPUs or fewer its parallelism is 1,
 * and {@code CompletableFuture} then runs every {@code *Async} stage given that pool on a new thread of its
 * own (a thread started and ended per call). This pool keeps at least two daemon workers
 * ({@code kestrel-callback-N}), in FIFO mode, for the callbacks of all of a runtime's references.
 */
public final class CallbackPool {
    private CallbackPool() {
    }

    /** A new pool; the runtime that made it shuts it down when it closes. */
    public static ForkJoinPool create() {
        int parallelism = Math.max(2, Runtime.getRuntime().availableProcessors());
        return new ForkJoinPool(parallelism, pool -> {
            ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
            t.setName("kestrel-callback-" + t.getPoolIndex());
            t.setDaemon(true);
            return t;
        }, null, true);
    }
}
