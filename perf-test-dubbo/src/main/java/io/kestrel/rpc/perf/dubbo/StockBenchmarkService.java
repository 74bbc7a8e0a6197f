package io.kestrel.rpc.perf.dubbo;

import io.kestrel.rpc.demo.bid.BidRequest;
import io.kestrel.rpc.demo.bid.BidResponse;

/** perf-test's BenchmarkService, as stock Dubbo serves it: the same three methods and DTOs. */
public interface StockBenchmarkService {
    BidResponse bid(BidRequest request);

    String echo(String text);

    boolean exists(long id);
}
