package io.kestrel.rpc.perf.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.perf.compare.system.BenchSystems;
import io.kestrel.rpc.perf.report.PerfReport;
import io.kestrel.rpc.perf.report.RunResult;
import io.kestrel.rpc.perf.support.Workload;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs the quick matrix (every system x every workload, separate server JVMs) as CI does. Asserts
 * only that every configuration completed without errors and that the report files exist; speed is
 * never asserted, as CI machines vary too much.
 */
class PerfQuickSmokeTest {

    @Test
    @Timeout(value = 6, unit = TimeUnit.MINUTES) // 15 systems x 3 workloads, each in its own server JVM
    void quickMatrixCompletesWithoutErrorsAndWritesTheReport() throws Exception {
        Path out = Path.of("target", "perf-smoke");
        PerfOptions options = PerfOptions.builder()
                .quick(true)
                .outputDir(out)
                .build();
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PerfReport report;
        try (PrintStream ps = new PrintStream(console, true, StandardCharsets.UTF_8)) {
            report = PerfRunner.run(options, ps);
        }
        String log = console.toString(StandardCharsets.UTF_8);
        System.out.println(log);

        assertEquals(BenchSystems.ALL.size() * Workload.values().length, report.results().size());
        for (RunResult r : report.results()) {
            String where = r.system() + " / " + r.workload().label() + ": " + r.note();
            assertEquals(RunResult.Status.OK, r.status(), where);
            assertEquals(0, r.errors(), where);
            assertTrue(r.calls() > 0, where);
        }
        for (Path file : List.of(report.markdown(), report.csv(), report.chart())) {
            assertTrue(file != null && Files.size(file) > 0, "missing or empty: " + file);
        }
        String csv = Files.readString(report.csv());
        assertEquals(report.results().size() + 1, csv.lines().count());
        assertTrue(Files.readString(report.markdown()).contains("## Targets of this round"));
    }
}
