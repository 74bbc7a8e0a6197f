package io.kestrel.rpc.perf.compare.system;

import java.util.concurrent.CompletableFuture;

/**
 * Starts asynchronous calls of a fixed workload without waiting for them (the pipelined workload).
 * {@link #start()} is called by one thread at a time; the futures may complete on any thread (an
 * event loop, a callback executor).
 */
public interface AsyncCaller {
    /**
     * Sends one call and returns at once.
     *
     * @return a future that completes with the checked result, or exceptionally if the call failed,
     *     timed out or returned something unexpected
     */
    CompletableFuture<?> start();
}
