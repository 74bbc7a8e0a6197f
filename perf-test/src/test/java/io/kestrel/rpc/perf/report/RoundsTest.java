package io.kestrel.rpc.perf.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.perf.support.Workload;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RoundsTest {
    /** A bid result whose p50 latency is {@code p50}, so a test can tell which round a row came from. */
    private static RunResult result(String system, int inflight, double tps, double p50, double ratioToRaw) {
        return new RunResult(system, Workload.BID, RunResult.Status.OK, "", inflight == 0 ? 10 : 1, inflight, 1000, 1,
                tps, 100, p50, 200, 300, 400, 1100, 900, 1000, 1000 + p50, 2000 + p50, 12.5, 20.25, ratioToRaw);
    }

    private static List<RunResult> round(double rawRpcTps, double kestrelTps, double pipelinedTps, double p50) {
        return List.of(result("raw-rpc-kryo", 0, rawRpcTps, p50, 0.5), result("kestrel-kryo", 0, kestrelTps, p50,
                kestrelTps / 2000), result("kestrel-kryo", 256, pipelinedTps, p50, Double.NaN));
    }

    // the machine was slow in round 2 and fast in round 3; the ratio within each round barely moved
    private final Rounds three = Rounds.combine(List.of(round(1000, 900, 2000, 10), round(500, 500, 900, 20),
            round(1300, 1200, 2700, 30)));

    private static RunResult find(Rounds rounds, String system, int inflight) {
        return rounds.combined().stream().filter(r -> r.system().equals(system) && r.inflight() == inflight)
                .findFirst().orElseThrow();
    }

    @Test
    void eachRowHasTheMedianTpsAndTheOtherFiguresOfTheMedianRound() {
        assertEquals(3, three.count());
        assertEquals(List.of("raw-rpc-kryo", "kestrel-kryo", "kestrel-kryo"),
                three.combined().stream().map(RunResult::system).toList());
        RunResult kestrel = find(three, "kestrel-kryo", 0);
        assertEquals(900, kestrel.tps(), 1e-9);
        assertEquals(10, kestrel.p50Micros(), 1e-9, "latency of round 1, whose TPS is the median");
        assertEquals(1010, kestrel.clientAllocPerCall(), 1e-9);
        assertEquals(3000, kestrel.calls(), "calls summed over the rounds");
        assertEquals(3, kestrel.errors(), "errors summed over the rounds");
        assertEquals("500-1,200", three.tpsRange(kestrel));
    }

    @Test
    void ratiosAreTheMedianOfTheRatiosWithinEachRoundNotTheRatioOfTheMedians() {
        RunResult kestrel = find(three, "kestrel-kryo", 0);
        RunResult pipelined = find(three, "kestrel-kryo", 256);
        Baselines b = three.baselines();
        // per round 0.9, 1.0 and 0.923: the median is round 3's; the medians' quotient would be 900/1000
        assertEquals(1200.0 / 1300, b.ratioToRawRpc(kestrel), 1e-9);
        // per round 2.22, 1.8 and 2.25
        assertEquals(2000.0 / 900, b.ratioToSync(pipelined), 1e-9);
        assertEquals(0.45, kestrel.ratioToRaw(), 1e-9, "median of the rounds' x raw 0.45, 0.25, 0.6");
        assertEquals(1200.0 / 1300, three.medianRatio(kestrel, find(three, "raw-rpc-kryo", 0)), 1e-9);
        assertTrue(FairTargets.markdown(three.combined(), b).contains("| kestrel-kryo bid TPS / raw-rpc-kryo | 0.92 |"));
    }

    @Test
    void anEvenNumberOfRoundsTakesTheMeanOfTheMiddleTwoAndTheFiguresOfTheSlowerOne() {
        Rounds four = Rounds.combine(List.of(round(1000, 900, 2000, 10), round(500, 500, 900, 20),
                round(1300, 1200, 2700, 30), round(1000, 1000, 2000, 40)));
        RunResult kestrel = find(four, "kestrel-kryo", 0);
        assertEquals(950, kestrel.tps(), 1e-9);
        assertEquals(10, kestrel.p50Micros(), 1e-9, "round 1 (900) is the slower of the middle two (900, 1000)");
        // per round 0.9, 1.0, 0.923, 1.0: the middle two are 0.923 and 1.0
        assertEquals((1200.0 / 1300 + 1.0) / 2, four.baselines().ratioToRawRpc(kestrel), 1e-9);
    }

    @Test
    void aConfigurationThatFailedInAnyRoundIsReportedFailedWithItsRound() {
        List<RunResult> failed = List.of(result("raw-rpc-kryo", 0, 1000, 10, 0.5),
                RunResult.notRun("kestrel-kryo", Workload.BID, RunResult.Status.FAILED, "timed out", 10));
        Rounds rounds = Rounds.combine(List.of(round(1000, 900, 2000, 10), failed));
        RunResult kestrel = find(rounds, "kestrel-kryo", 0);
        assertEquals(RunResult.Status.FAILED, kestrel.status());
        assertEquals("round 2 of 2: timed out", kestrel.note());
        assertEquals(2, kestrel.errors());
        assertTrue(Double.isNaN(rounds.baselines().ratioToRawRpc(kestrel)));
        assertEquals("-", rounds.tpsRange(kestrel));
        // the pipelined run of round 1 has no counterpart in round 2: it keeps its own figures
        assertEquals(2000, find(rounds, "kestrel-kryo", 256).tps(), 1e-9);
    }

    @Test
    void oneRoundIsReportedAsItWasMeasured() {
        List<RunResult> only = round(1000, 900, 2000, 10);
        Rounds one = Rounds.combine(List.of(only));
        assertEquals(only, one.combined());
        Baselines plain = new Baselines(only);
        for (RunResult r : only) {
            assertEquals(plain.ratioToRawRpc(r), one.baselines().ratioToRawRpc(r));
            assertEquals(plain.ratioToSync(r), one.baselines().ratioToSync(r));
        }
        assertFalse(List.of(ReportWriter.header(one)).contains(ReportWriter.TPS_RANGE));
        assertFalse(ReportWriter.resultsText(one).contains(ReportWriter.TPS_RANGE));
    }

    @Test
    void severalRoundsShowTheSpreadAndKeepEveryRoundsRowsInTheirOwnCsv() {
        assertEquals(ReportWriter.TPS_RANGE, ReportWriter.header(three)[2]);
        String text = ReportWriter.resultsText(three);
        assertTrue(text.contains(ReportWriter.TPS_RANGE), text);
        assertTrue(text.contains("500-1,200"), text);
        assertTrue(text.contains("900-2,700"), "pipelined spread: " + text);
        List<String> csv = ResultsCsv.writeRounds(three.perRound()).lines().toList();
        assertEquals("round," + ResultsCsv.HEADER, csv.get(0));
        assertEquals(1 + 3 * 3, csv.size());
        assertTrue(csv.get(5).startsWith("2,kestrel-kryo,bid,OK,10,0,1000,1,500.000,0.250,1.000,"), csv.get(5));
    }

    @Test
    void theRoundsCsvReadsBackEveryRoundSoAJdkComparisonCanCombineThem(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve(ReportWriter.ROUNDS_CSV);
        Files.writeString(csv, ResultsCsv.writeRounds(three.perRound()), StandardCharsets.UTF_8);
        assertEquals(three.perRound(), ResultsCsv.readRounds(csv));
        Files.writeString(csv, "round," + ResultsCsv.HEADER + "\n2,raw-rpc-kryo", StandardCharsets.UTF_8);
        IOException e = assertThrows(IOException.class, () -> ResultsCsv.readRounds(csv));
        assertTrue(e.getMessage().contains("line 2 is of round 2 after round 0"), e.getMessage());
    }

    @Test
    void noRoundsIsAProgrammingError() {
        assertThrows(IllegalArgumentException.class, () -> Rounds.combine(List.of()));
    }
}
