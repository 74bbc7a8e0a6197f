package io.kestrel.rpc.perf.compare.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.perf.server.BenchServer;
import io.kestrel.rpc.perf.support.Encodings;
import io.kestrel.rpc.perf.support.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RawRpcSystemTest {

    @ParameterizedTest
    @ValueSource(strings = {"kryo", "fory", "hessian2", "fastjson2", "fst", "java", "kryo-compatible",
        "fory-compatible"})
    void answersEveryWorkloadCorrectlyWithTheFrameworksSerializer(String variant) throws Exception {
        RawRpcSystem system = new RawRpcSystem(variant, SystemSettings.DEFAULTS);
        assertNull(system.unavailableReason());
        try (BenchServer server = system.startServer();
                BenchClient client = system.openClient("127.0.0.1", server.port())) {
            for (Workload w : Workload.values()) {
                // the caller checks the deserialized answer and throws if it is not the expected result
                try (Caller caller = client.newCaller(w)) {
                    caller.call();
                    caller.call();
                }
            }
        }
    }

    @Test
    void carriesExactlyTheFrameworkSerializersBytesPlusItsFramingInEachDirection() throws Exception {
        RawRpcSystem system = new RawRpcSystem("kryo", SystemSettings.DEFAULTS);
        try (BenchServer server = system.startServer();
                BenchClient client = system.openClient("127.0.0.1", server.port());
                Caller caller = client.newCaller(Workload.BID)) {
            for (int i = 0; i < 3; i++) {
                caller.call();
            }
            long argument = system.argumentBytes(Workload.BID);
            long result = Encodings.encode("kryo", Workload.BID.expectedResult()).length;
            // request: length 4 + id 8 + workload 1; response: length 4 + id 8 + status 1
            assertEquals(3 * (13 + argument), client.bytesWritten());
            assertEquals(3 * (13 + result), client.bytesRead());
        }
    }

    @Test
    void asynchronousCallsOnTheSharedConnectionAreEachMatchedToTheirOwnAnswer() throws Exception {
        RawRpcSystem system = new RawRpcSystem("fory", SystemSettings.DEFAULTS);
        try (BenchServer server = system.startServer();
                BenchClient client = system.openClient("127.0.0.1", server.port())) {
            List<CompletableFuture<?>> calls = new ArrayList<>();
            for (Workload w : Workload.values()) {
                AsyncCaller caller = client.newAsyncCaller(w);
                assertNotNull(caller);
                for (int i = 0; i < 200; i++) {
                    calls.add(caller.start());
                }
            }
            // each future checks its own result against its workload: a mixed-up answer fails it
            CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
            assertTrue(calls.stream().allMatch(f -> f.isDone() && !f.isCompletedExceptionally()));
        }
    }

    @Test
    void framesTheFrameworkSystemsAgainstTheMinimalRpcOfTheirOwnSerialization() {
        assertEquals("raw-rpc-kryo", BenchSystems.rawRpcOf("kestrel-kryo"));
        assertEquals("raw-rpc-kryo", BenchSystems.rawRpcOf("kestrel-kryo-tls"));
        assertEquals("raw-rpc-fory", BenchSystems.rawRpcOf("kestrel-fory-observed"));
        assertEquals("raw-rpc-kryo", BenchSystems.rawRpcOf("kestrel-kryo-otel"));
        assertEquals("raw-rpc-fory-compatible", BenchSystems.rawRpcOf("kestrel-fory-compatible"));
        assertNull(BenchSystems.rawRpcOf("raw-rpc-kryo"));
        assertNull(BenchSystems.rawRpcOf("rest-netty"));
        for (String s : BenchSystems.ALL) {
            String raw = BenchSystems.rawRpcOf(s);
            assertTrue(raw == null || BenchSystems.ALL.indexOf(raw) < BenchSystems.ALL.indexOf(s),
                    s + " runs after " + raw);
        }
    }
}
