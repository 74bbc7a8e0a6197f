package io.kestrel.rpc.perf.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.perf.compare.system.BenchClient;
import io.kestrel.rpc.perf.compare.system.BenchSystem;
import io.kestrel.rpc.perf.compare.system.BenchSystems;
import io.kestrel.rpc.perf.compare.system.SystemSettings;
import io.kestrel.rpc.perf.report.RunResult;
import io.kestrel.rpc.perf.server.ClasspathSnapshot;
import io.kestrel.rpc.perf.server.ServerLaunch;
import io.kestrel.rpc.perf.server.ServerProcess;
import io.kestrel.rpc.perf.support.Workload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The allocation per call of each side arrives: the client's from this JVM, the server's from the
 * server JVM over its control channel, for a synchronous and a pipelined run of a minimal RPC.
 */
class ServerAllocationTest {

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void bothSidesReportTheirAllocationPerCallFromTheirOwnJvm() throws Exception {
        String name = "raw-rpc-kryo";
        BenchSystem system = BenchSystems.create(name, SystemSettings.DEFAULTS);
        Path dir = Files.createDirectories(Path.of("target", "server-allocation-test"));
        try (ClasspathSnapshot classpath = ClasspathSnapshot.ofCurrentJvm();
                ServerProcess server = ServerProcess.start(new ServerLaunch(name, SystemSettings.DEFAULTS, 120),
                        classpath, List.of(), dir.resolve("server.log"));
                BenchClient client = system.openClient("127.0.0.1", server.port())) {
            RunResult sync = LoadGenerator.run(name, Workload.BID, client, system.argumentBytes(Workload.BID), 2,
                    Duration.ofMillis(200), Duration.ofMillis(500), Duration.ofSeconds(5), server::allocatedBytes,
                    (p, c) -> { });
            RunResult pipelined = PipelinedLoad.run(name, Workload.BID, client, system.argumentBytes(Workload.BID), 1,
                    16, Duration.ofMillis(200), Duration.ofMillis(500), Duration.ofSeconds(5), server::allocatedBytes,
                    (p, c) -> { });
            for (RunResult r : List.of(sync, pipelined)) {
                assertEquals(RunResult.Status.OK, r.status(), r.note());
                // deserializing a bid request and serializing a bid response allocates on the server, in its own JVM
                assertTrue(r.serverAllocPerCall() > 100 && r.serverAllocPerCall() < 1_000_000, r.toString());
                assertTrue(r.clientAllocPerCall() > 100 && r.clientAllocPerCall() < 1_000_000, r.toString());
            }
        }
    }
}
