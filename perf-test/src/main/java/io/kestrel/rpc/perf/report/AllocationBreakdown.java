package io.kestrel.rpc.perf.report;

import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.demo.bid.BidFixtures;
import io.kestrel.rpc.demo.bid.BidRequest;
import io.kestrel.rpc.demo.bid.BidResponse;
import io.kestrel.rpc.perf.compare.system.BenchSystems;
import io.kestrel.rpc.perf.support.Encodings;
import io.kestrel.rpc.perf.support.ThreadAllocation;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the allocation of one bid call goes, measured in this JVM on one thread, step by step, for
 * each installed serialization: encoding and decoding the request and the response, and the service
 * logic. Compared with the per-call allocation measured end to end, the remainder is what the
 * framework and transport add (frames, futures, proxies, buffers).
 *
 * @param rows one per serialization, in {@link BenchSystems#SERIALIZATIONS} order
 */
public record AllocationBreakdown(List<Row> rows) {
    /**
     * Bytes allocated per operation for one serialization.
     *
     * @param serialization name
     * @param serializeRequest encoding the bid request (client side)
     * @param deserializeRequest decoding it (server side)
     * @param service {@code BidFixtures.responseFor} (server side)
     * @param serializeResponse encoding the response (server side)
     * @param deserializeResponse decoding it (client side)
     */
    public record Row(String serialization, double serializeRequest, double deserializeRequest, double service,
            double serializeResponse, double deserializeResponse) {
        /** What the client side needs at least: encode the request, decode the response. */
        public double clientFloor() {
            return serializeRequest + deserializeResponse;
        }

        /** What the server side needs at least: decode the request, run the service, encode the response. */
        public double serverFloor() {
            return deserializeRequest + service + serializeResponse;
        }
    }

    /**
     * Measures every installed serialization (with the DemoOptimizer registrations).
     *
     * @param quick fewer repetitions (less JIT warm-up, so figures may be somewhat higher)
     */
    public static AllocationBreakdown measure(boolean quick) {
        int warmup = quick ? 300 : 3_000;
        int measured = quick ? 300 : 2_000;
        List<Row> rows = new ArrayList<>();
        if (!ThreadAllocation.isSupported()) {
            return new AllocationBreakdown(rows);
        }
        BidRequest request = BidFixtures.sampleRequest();
        BidResponse response = BidFixtures.sampleResponse();
        for (String name : BenchSystems.SERIALIZATIONS) {
            if (!Encodings.isAvailable(name)) {
                continue;
            }
            Serializer s = Encodings.serializer(name, true);
            byte[] requestBytes = Encodings.encode(name, request);
            byte[] responseBytes = Encodings.encode(name, response);
            ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
            ByteArrayInputStream requestIn = new ByteArrayInputStream(requestBytes);
            ByteArrayInputStream responseIn = new ByteArrayInputStream(responseBytes);
            rows.add(new Row(name,
                    perOp(warmup, measured, () -> {
                        out.reset();
                        s.serialize(request, out);
                    }),
                    perOp(warmup, measured, () -> {
                        requestIn.reset();
                        s.deserialize(requestIn, BidRequest.class);
                    }),
                    perOp(warmup, measured, () -> BidFixtures.responseFor(request)),
                    perOp(warmup, measured, () -> {
                        out.reset();
                        s.serialize(response, out);
                    }),
                    perOp(warmup, measured, () -> {
                        responseIn.reset();
                        s.deserialize(responseIn, BidResponse.class);
                    })));
        }
        return new AllocationBreakdown(rows);
    }

    private static double perOp(int warmup, int measured, Runnable op) {
        for (int i = 0; i < warmup; i++) {
            op.run();
        }
        long before = ThreadAllocation.currentThreadAllocatedBytes();
        for (int i = 0; i < measured; i++) {
            op.run();
        }
        return (ThreadAllocation.currentThreadAllocatedBytes() - before) / (double) measured;
    }
}
