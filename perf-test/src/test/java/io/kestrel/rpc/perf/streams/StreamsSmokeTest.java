package io.kestrel.rpc.perf.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every streams system still works end to end: a tiny run of each (its own server JVM, real sockets on loopback)
 * delivers every message in order, makes every round trip, counts its wire bytes and writes the report. Asserts no
 * speed. grpc-java runs from the module perf-test-grpc next to this one, which the build compiles first.
 */
class StreamsSmokeTest {
    private static final String MODULE_PROPERTY = "kestrel.perf.grpc.module";
    private String previousModule;

    @TempDir
    Path out;

    @BeforeEach
    void pointAtTheGrpcModule() {
        previousModule = System.getProperty(MODULE_PROPERTY);
        // surefire runs in perf-test/; the module sits beside it
        System.setProperty(MODULE_PROPERTY, Path.of("..", "perf-test-grpc").toAbsolutePath().normalize().toString());
    }

    @AfterEach
    void restore() {
        if (previousModule == null) {
            System.clearProperty(MODULE_PROPERTY);
        } else {
            System.setProperty(MODULE_PROPERTY, previousModule);
        }
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES) // 5 server JVMs; each workload itself is limited to 30 s
    void everySystemStreamsEveryMessageAndTheReportIsWritten() throws Exception {
        assertNull(GrpcStreamSystem.GRPC.unavailableReason(), "perf-test-grpc must be built before this test");
        StreamOptions options = StreamOptions.parse("--quick", "--messages", "500", "--trips", "50",
                "--unary-calls", "50", "--timeout", "30s", "--out", out.toString());
        List<String> progress = new ArrayList<>();
        List<StreamRound> rows = new StreamRunner(options, progress::add).run();

        assertEquals(StreamSystems.DEFAULTS, rows.stream().map(StreamRound::system).toList(), progress.toString());
        for (StreamRound r : rows) {
            assertEquals(2 * 500, r.feedMessages(), r.toString());
            assertEquals(2 * 50, r.trips(), r.toString());
            assertTrue(r.feedNanos() > 0 && r.pingNanos() > 0, r.toString());
            // every message crossed the counted socket: at least its serialized bytes, and not absurdly more
            assertTrue(r.feedWirePerMessage() >= r.messageBytes() && r.feedWirePerMessage() < r.messageBytes() + 64,
                    r.toString());
            assertTrue(r.pingWirePerMessage() >= r.messageBytes() && r.pingWirePerMessage() < r.messageBytes() + 200,
                    r.toString());
            boolean framework = r.system().startsWith(KestrelStreamSystem.PREFIX);
            assertEquals(framework, r.unaryP99Alone() > 0 && r.unaryP99WithStream() > 0, r.toString());
        }
        Path report = new StreamReport(options, rows).write();
        String md = Files.readString(report);
        for (String system : StreamSystems.DEFAULTS) {
            assertTrue(md.contains("| " + system + " |"), system + " missing from the report:\n" + md);
        }
        assertTrue(md.contains("## Targets (issue 37)"), md);
        assertEquals(1 + rows.size(), Files.readAllLines(out.resolve("streams-rounds.csv")).size());
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void theSystemWithoutHandOffsStreamsEveryMessageToo() throws Exception {
        StreamOptions options = StreamOptions.parse("--quick", "--systems", "kestrel-fory-direct", "--messages", "500",
                "--trips", "50", "--unary-calls", "50", "--timeout", "30s", "--out", out.toString());
        List<StreamRound> rows = new StreamRunner(options, line -> { }).run();
        assertEquals(List.of("kestrel-fory-direct"), rows.stream().map(StreamRound::system).toList());
        StreamRound r = rows.get(0);
        assertEquals(2 * 500, r.feedMessages(), r.toString());
        assertEquals(2 * 50, r.trips(), r.toString());
        assertTrue(r.unaryP99Alone() > 0 && r.unaryP99WithStream() > 0, r.toString());
    }
}
