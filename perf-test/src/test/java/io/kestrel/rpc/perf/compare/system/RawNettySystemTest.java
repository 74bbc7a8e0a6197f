package io.kestrel.rpc.perf.compare.system;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kestrel.rpc.perf.server.BenchServer;
import io.kestrel.rpc.perf.support.Encodings;
import io.kestrel.rpc.perf.support.Workload;
import org.junit.jupiter.api.Test;

class RawNettySystemTest {

    @Test
    void countsExactlyTheFramedPayloadBytesInEachDirection() throws Exception {
        RawNettySystem system = new RawNettySystem(SystemSettings.DEFAULTS);
        try (BenchServer server = system.startServer();
                BenchClient client = system.openClient("127.0.0.1", server.port());
                Caller caller = client.newCaller(Workload.BID)) {
            for (int i = 0; i < 3; i++) {
                caller.call();
            }
            long argument = system.argumentBytes(Workload.BID);
            long result = Encodings.encode(system.encoding(), Workload.BID.expectedResult()).length;
            assertEquals(3 * (4 + 1 + argument), client.bytesWritten());
            assertEquals(3 * (4 + result), client.bytesRead());
        }
    }
}
