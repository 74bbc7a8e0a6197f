package io.kestrel.rpc.perf.support;

import io.kestrel.rpc.demo.bid.BidRequest;
import io.kestrel.rpc.demo.bid.BidResponse;
import java.util.concurrent.CompletableFuture;

/**
 * The service every system under test serves, one method per {@link Workload}. Implementations
 * must be thread-safe.
 */
public interface BenchmarkService {
    /** Nested-object workload: a bid request (about 1-2 KB) in, a bid response out. */
    BidResponse bid(BidRequest request);

    /** Large-payload workload: returns {@code text} unchanged (50,000 characters in the benchmark). */
    String echo(String text);

    /** Tiny workload: whether an entity with this id exists. */
    boolean exists(long id);

    /**
     * {@link #bid} as an asynchronous method (the pipelined workload): the framework returns at once
     * and completes the future when the answer arrives.
     */
    CompletableFuture<BidResponse> bidAsync(BidRequest request);

    /** {@link #echo} as an asynchronous method. */
    CompletableFuture<String> echoAsync(String text);

    /** {@link #exists} as an asynchronous method. */
    CompletableFuture<Boolean> existsAsync(long id);
}
