package io.kestrel.rpc.perf.support;

import io.kestrel.rpc.demo.bid.BidFixtures;
import io.kestrel.rpc.demo.bid.BidRequest;
import io.kestrel.rpc.demo.bid.BidResponse;
import java.util.concurrent.CompletableFuture;

/**
 * The server-side logic shared by every system: deliberately cheap and deterministic, so that the
 * benchmark measures the stack around it. Stateless and thread-safe.
 */
public final class BenchmarkServiceImpl implements BenchmarkService {

    @Override
    public BidResponse bid(BidRequest request) {
        return BidFixtures.responseFor(request);
    }

    @Override
    public String echo(String text) {
        return text;
    }

    @Override
    public boolean exists(long id) {
        return (id & 1) == 0;
    }

    /** The same work as {@link #bid}, done on the calling thread; the future is already complete. */
    @Override
    public CompletableFuture<BidResponse> bidAsync(BidRequest request) {
        return CompletableFuture.completedFuture(bid(request));
    }

    @Override
    public CompletableFuture<String> echoAsync(String text) {
        return CompletableFuture.completedFuture(echo(text));
    }

    @Override
    public CompletableFuture<Boolean> existsAsync(long id) {
        return CompletableFuture.completedFuture(exists(id));
    }
}
