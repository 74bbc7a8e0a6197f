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
 * Runs the quick matrix (every system x every workload, separate server JVMs) as CI does, with the
 * minimal RPCs of kryo and fory only (the other six take a minute more and run no code the two do not);
 * then a small pipelined run and a small {@code --jdks} run. Asserts only that every configuration
 * completed without errors and that the report files exist; speed is never asserted, as CI machines
 * vary too much.
 */
class PerfQuickSmokeTest {
    /**
     * The call timeout of the smoke runs: a first call includes the serializers' code generation (fory's
     * for the bid classes), which on a loaded CI machine has taken more than the default 5 s.
     */
    static final java.time.Duration FIRST_CALL_ALLOWANCE = java.time.Duration.ofSeconds(30);

    static final List<String> SMOKE_SYSTEMS = BenchSystems.ALL.stream()
            .filter(s -> !s.startsWith("raw-rpc-") || s.equals("raw-rpc-kryo") || s.equals("raw-rpc-fory"))
            .toList();

    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES) // 21 systems x 3 workloads, each system in its own server JVM
    void quickMatrixCompletesWithoutErrorsAndWritesTheReport() throws Exception {
        Path out = Path.of("target", "perf-smoke");
        PerfOptions options = PerfOptions.builder()
                .quick(true)
                .systems(SMOKE_SYSTEMS)
                .callTimeout(FIRST_CALL_ALLOWANCE)
                .outputDir(out)
                .build();
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PerfReport report;
        try (PrintStream ps = new PrintStream(console, true, StandardCharsets.UTF_8)) {
            report = PerfRunner.run(options, ps);
        }
        String log = console.toString(StandardCharsets.UTF_8);
        System.out.println(log);

        assertEquals(SMOKE_SYSTEMS.size() * Workload.values().length, report.results().size());
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
        String md = Files.readString(report.markdown());
        assertTrue(md.contains("## Targets of this round"));
        assertTrue(md.contains("| kestrel-kryo bid TPS / raw-rpc-kryo |"), "x raw-rpc target row");
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void pipelinedRunsReportEveryNumberInFlightBesideTheSynchronousRun() throws Exception {
        Path out = Path.of("target", "perf-smoke-pipelined");
        PerfOptions options = PerfOptions.parse("--quick", "--systems", "raw-rpc-kryo,kestrel-kryo,rest-netty",
                "--workloads", "exists", "--inflight", "1,16", "--call-timeout", "30s", "--out", out.toString());
        PerfReport report;
        try (PrintStream ps = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)) {
            report = PerfRunner.run(options, ps);
        }
        // 3 synchronous runs, 2 x 2 pipelined (REST has no asynchronous form)
        assertEquals(7, report.results().size());
        for (RunResult r : report.results()) {
            String where = r.system() + " / " + r.inflight() + ": " + r.note();
            assertEquals(RunResult.Status.OK, r.status(), where);
            assertTrue(r.calls() > 0 && r.serverAllocPerCall() > 0, where);
        }
        assertEquals(List.of(0, 1, 16, 0, 1, 16, 0), report.results().stream().map(RunResult::inflight).toList());
        String md = Files.readString(report.markdown());
        assertTrue(md.contains("## Pipelined asynchronous calls"), md);
        assertTrue(md.contains("| kestrel-kryo | 16 | 1 |"), md);
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void jdksRunsTheMatrixInAChildRunnerPerJdkAndWritesThemSideBySide() throws Exception {
        Path out = Path.of("target", "perf-smoke-jdks");
        String jdk = Integer.toString(Runtime.version().feature());
        String[] args = {"--quick", "--systems", "raw-rpc-kryo,kestrel-kryo", "--workloads", "exists",
            "--call-timeout", "30s", "--jdks", jdk, "--out", out.toString()};
        PerfReport report;
        try (PrintStream ps = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)) {
            report = JdkRunner.run(PerfOptions.parse(args), args, ps);
        }
        assertEquals(2, report.results().size());
        for (RunResult r : report.results()) {
            assertEquals(RunResult.Status.OK, r.status(), r.system() + ": " + r.note());
        }
        assertTrue(Files.isRegularFile(out.resolve("jdk-" + jdk).resolve("perf-report.md")));
        String md = Files.readString(report.markdown());
        assertTrue(md.contains("| system | TPS " + jdk + " | x raw-rpc " + jdk + " |"), md);
        assertEquals(3, Files.readAllLines(report.csv()).size());
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void freshClientRunsEachSystemOfEachRoundInAClientJvmOfItsOwn() throws Exception {
        Path out = Path.of("target", "perf-smoke-fresh-client");
        PerfOptions options = PerfOptions.parse("--quick", "--fresh-client", "--systems", "raw-rpc-kryo,kestrel-kryo",
                "--workloads", "exists", "--rounds", "2", "--call-timeout", "30s", "--out", out.toString());
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PerfReport report;
        try (PrintStream ps = new PrintStream(console, true, StandardCharsets.UTF_8)) {
            report = PerfRunner.run(options, ps);
        }
        String log = console.toString(StandardCharsets.UTF_8);
        assertEquals(2, report.results().size(), log);
        for (RunResult r : report.results()) {
            assertEquals(RunResult.Status.OK, r.status(), r.system() + ": " + r.note());
            assertTrue(r.calls() > 0 && r.errors() == 0, r.system());
        }
        for (String child : List.of("round1-raw-rpc-kryo", "round1-kestrel-kryo", "round2-kestrel-kryo", "round2-raw-rpc-kryo")) {
            assertTrue(Files.isRegularFile(out.resolve("fresh-client").resolve(child).resolve("perf-results.csv")), child);
        }
        // each child runner printed its own header, behind its system's name
        assertTrue(log.contains("[kestrel-kryo] Kestrel RPC perf-test:"), log);
        assertTrue(log.contains("[raw-rpc-kryo] Kestrel RPC perf-test:"), log);
        // the ratio to the minimal RPC is taken in the parent, across the children of one round
        List<String> rounds = Files.readAllLines(out.resolve("perf-results-rounds.csv"));
        assertEquals(5, rounds.size(), String.join("\n", rounds));
        for (String row : rounds.subList(1, rounds.size())) {
            if (row.contains(",kestrel-kryo,")) {
                assertTrue(row.split(",")[10].matches("\\d+\\.\\d+"), "x raw-rpc in " + row);
            }
        }
    }
}
