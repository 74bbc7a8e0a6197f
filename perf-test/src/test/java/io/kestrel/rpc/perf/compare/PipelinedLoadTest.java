package io.kestrel.rpc.perf.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.perf.compare.system.BenchClient;
import io.kestrel.rpc.perf.compare.system.BenchSystem;
import io.kestrel.rpc.perf.compare.system.BenchSystems;
import io.kestrel.rpc.perf.compare.system.SystemSettings;
import io.kestrel.rpc.perf.report.RunResult;
import io.kestrel.rpc.perf.server.BenchServer;
import io.kestrel.rpc.perf.support.Workload;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The pipelined driver on real servers (in this JVM): it completes exactly the calls asked for. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PipelinedLoadTest {

    @ParameterizedTest(name = "{0} / {1}: {3} calls, {2} in flight")
    @CsvSource({
        "raw-rpc-kryo, exists, 16, 3000, 1",
        "raw-rpc-fory, bid, 64, 1000, 2",
        "kestrel-kryo, exists, 16, 3000, 1",
        "kestrel-fory, bid, 64, 1000, 3",
        "kestrel-kryo, echo-50k, 8, 200, 2",
    })
    void completesExactlyTheRequestedCallsWithNoMoreThanTheRequestedNumberInFlight(String name, String workload,
            int inflight, long calls, int callers) throws Exception {
        BenchSystem system = BenchSystems.create(name, SystemSettings.DEFAULTS);
        Workload w = Workload.byLabel(workload);
        try (BenchServer server = system.startServer();
                BenchClient client = system.openClient("127.0.0.1", server.port())) {
            PipelinedLoad.Outcome o = PipelinedLoad.runCalls(name, w, client, callers, inflight, calls,
                    Duration.ofSeconds(60), Duration.ofSeconds(5));
            RunResult r = o.result();
            assertEquals(RunResult.Status.OK, r.status(), r.note());
            assertEquals(0, r.errors(), r.note());
            assertEquals(calls, r.calls());
            assertEquals(calls, o.started());
            assertEquals(inflight, r.inflight());
            assertEquals(callers, r.threads());
            assertTrue(o.maxInFlight() >= 1 && o.maxInFlight() <= inflight, "max in flight " + o.maxInFlight());
            assertTrue(r.p50Micros() > 0 && r.p999Micros() >= r.p50Micros(), r.toString());
            // every call's bytes went over the one connection
            assertTrue(r.requestBytesPerCall() >= system.argumentBytes(w), r.toString());
        }
    }
}
