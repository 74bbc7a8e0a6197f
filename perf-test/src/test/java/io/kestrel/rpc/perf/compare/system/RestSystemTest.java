package io.kestrel.rpc.perf.compare.system;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.perf.server.BenchServer;
import io.kestrel.rpc.perf.support.Workload;
import org.junit.jupiter.api.Test;

class RestSystemTest {

    @Test
    void bothRestServersAnswerEveryWorkloadOverOneKeepAliveConnection() throws Exception {
        for (BenchSystem system : new BenchSystem[] {new NettyHttpSystem(SystemSettings.DEFAULTS),
                new TomcatHttpSystem(SystemSettings.DEFAULTS)}) {
            try (BenchServer server = system.startServer();
                    BenchClient client = system.openClient("127.0.0.1", server.port())) {
                for (Workload w : Workload.values()) {
                    try (Caller caller = client.newCaller(w)) {
                        long before = client.bytesWritten();
                        caller.call();
                        caller.call();
                        long perCall = (client.bytesWritten() - before) / 2;
                        long argument = system.argumentBytes(w);
                        assertTrue(perCall > argument && perCall < argument + 400,
                                system.name() + " " + w.label() + ": " + perCall + " bytes per call for a "
                                        + argument + "-byte body");
                    }
                }
            }
        }
    }
}
