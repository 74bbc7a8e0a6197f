package io.kestrel.rpc.perf.support;

import io.kestrel.rpc.demo.bid.BidRequest;
import io.kestrel.rpc.demo.bid.BidResponse;

/**
 * perf-test's BenchmarkService for stock Dubbo: the same name, methods and DTOs as perf-test's own (Dubbo sends
 * the interface name in every request, and a Kestrel provider serves perf-test's). The two never share a class
 * path: this module's runs in its own JVM and class loader.
 */
public interface BenchmarkService {
    BidResponse bid(BidRequest request);

    String echo(String text);

    boolean exists(long id);
}
