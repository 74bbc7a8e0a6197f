package io.kestrel.rpc.perf.dubbo;

import io.kestrel.rpc.perf.support.BenchmarkService;

import io.kestrel.rpc.demo.bid.BidFixtures;
import io.kestrel.rpc.demo.bid.BidRequest;
import io.kestrel.rpc.demo.bid.BidResponse;

/** The same work as perf-test's BenchmarkServiceImpl. */
public final class StockBenchmarkServiceImpl implements BenchmarkService {
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
}
