package io.kestrel.rpc.perf.report;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The rounds of one run ({@code --rounds}) and the one row per configuration they combine into.
 * On a machine whose speed drifts, one measurement per system cannot support a ratio; the same
 * configuration measured in several rounds, with the systems in alternating order, can.
 *
 * <ul>
 *   <li>TPS is the median of the rounds' TPS (the mean of the two middle ones for an even number).
 *   <li>The other figures (latency, bytes, allocation, CPU) come from the median round: the round whose
 *       TPS is the median (for an even number, the slower of the two middle rounds), so they stay one
 *       consistent measurement.
 *   <li>{@code calls} and {@code errors} are summed over the rounds.
 *   <li>Every ratio between two configurations ({@code x raw}, {@code x raw-rpc}, {@code x sync}, the
 *       targets) is taken within each round, where both ran under the same conditions, and the median
 *       of those is reported ({@link #medianRatio}): the ratio of the median TPS would mix rounds.
 *   <li>A configuration that failed or was skipped in any round is reported as such, with the round.
 * </ul>
 *
 * With one round the combined rows are that round's results and every ratio the plain one.
 */
public final class Rounds {
    private final List<List<RunResult>> perRound;
    private final List<Map<String, RunResult>> byKeyPerRound = new ArrayList<>();
    private final List<RunResult> combined = new ArrayList<>();
    private final Map<String, double[]> tpsRange = new HashMap<>();
    private final Baselines baselines;

    private Rounds(List<List<RunResult>> perRound) {
        this.perRound = List.copyOf(perRound.stream().map(List::copyOf).toList());
        Map<String, List<RunResult>> byKey = new LinkedHashMap<>(); // in the first round's order
        for (List<RunResult> round : this.perRound) {
            Map<String, RunResult> index = new HashMap<>();
            for (RunResult r : round) {
                index.put(Baselines.key(r), r);
                byKey.computeIfAbsent(Baselines.key(r), k -> new ArrayList<>()).add(r);
            }
            byKeyPerRound.add(index);
        }
        byKey.forEach((key, results) -> combined.add(combineConfiguration(results)));
        baselines = new Baselines(combined, this::medianRatio);
    }

    /**
     * Combines the rounds' results; each round's {@link RunResult#ratioToRaw()} must already be that
     * round's.
     *
     * @param perRound each round's results, at least one round
     */
    public static Rounds combine(List<List<RunResult>> perRound) {
        if (perRound.isEmpty()) {
            throw new IllegalArgumentException("no rounds to combine");
        }
        return new Rounds(perRound);
    }

    /** The number of rounds. */
    public int count() {
        return perRound.size();
    }

    /** Each round's results, in run order, with that round's ratio to raw Netty. */
    public List<List<RunResult>> perRound() {
        return perRound;
    }

    /** One row per configuration, in the first round's order; see the class comment for how. */
    public List<RunResult> combined() {
        return List.copyOf(combined);
    }

    /** The ratios of the combined rows to their references, each the median of the per-round ratios. */
    public Baselines baselines() {
        return baselines;
    }

    /**
     * The median over the rounds of {@code r}'s TPS divided by {@code reference}'s TPS in the same
     * round, over the rounds where both succeeded; NaN if there is none.
     */
    public double medianRatio(RunResult r, RunResult reference) {
        List<Double> ratios = new ArrayList<>();
        for (Map<String, RunResult> round : byKeyPerRound) {
            RunResult a = round.get(Baselines.key(r));
            RunResult b = round.get(Baselines.key(reference));
            if (a != null && b != null && a.status() == RunResult.Status.OK && b.status() == RunResult.Status.OK) {
                ratios.add(a.tps() / b.tps());
            }
        }
        return median(ratios);
    }

    /** "12,345-15,678": the lowest and highest TPS of {@code r}'s configuration over the rounds, or "-". */
    public String tpsRange(RunResult r) {
        double[] range = tpsRange.get(Baselines.key(r));
        return range == null ? "-" : String.format(Locale.ROOT, "%,.0f-%,.0f", range[0], range[1]);
    }

    /**
     * The header's line on the rounds: nothing for one round (the report reads as before), else how
     * many and how their figures were combined.
     */
    String reportLine() {
        if (count() == 1) {
            return "";
        }
        return "- Rounds: " + count() + ", the systems in alternating order (forward, reverse, ...), each server"
                + " JVM started anew in each round; the longer first warm-up of a client family only in round 1. Each"
                + " row: TPS is the median of the rounds' TPS (`TPS min-max` their spread); `x raw`, `x raw-rpc`,"
                + " `x sync` and the targets' ratios are the median of the ratios taken within each round; latency,"
                + " bytes, allocation and CPU columns come from the round whose TPS is the median (for an even"
                + " number of rounds the slower middle one), so `own client B` / `own server B` subtract the median"
                + " rounds' allocation of the two systems; calls and errors are summed over the rounds. Every"
                + " round's rows: `" + ReportWriter.ROUNDS_CSV + "`.\n";
    }

    private RunResult combineConfiguration(List<RunResult> rounds) {
        for (int i = 0; i < rounds.size(); i++) {
            RunResult r = rounds.get(i);
            if (r.status() != RunResult.Status.OK) {
                String note = count() == 1 ? r.note() : "round " + (i + 1) + " of " + count() + ": " + r.note();
                return with(r, note, r.tps(), r.ratioToRaw(), sum(rounds, true), sum(rounds, false));
            }
        }
        RunResult[] byTps = rounds.stream().sorted((a, b) -> Double.compare(a.tps(), b.tps()))
                .toArray(RunResult[]::new);
        tpsRange.put(Baselines.key(byTps[0]), new double[] {byTps[0].tps(), byTps[byTps.length - 1].tps()});
        RunResult median = byTps[(byTps.length - 1) / 2];
        return with(median, median.note(), median(rounds.stream().map(RunResult::tps).toList()),
                median(rounds.stream().map(RunResult::ratioToRaw).toList()), sum(rounds, true), sum(rounds, false));
    }

    private static long sum(List<RunResult> rounds, boolean calls) {
        return rounds.stream().mapToLong(calls ? RunResult::calls : RunResult::errors).sum();
    }

    private static RunResult with(RunResult r, String note, double tps, double ratioToRaw, long calls, long errors) {
        return new RunResult(r.system(), r.workload(), r.status(), note, r.threads(), r.inflight(), calls, errors, tps,
                r.meanMicros(), r.p50Micros(), r.p99Micros(), r.p999Micros(), r.maxMicros(), r.requestBytesPerCall(),
                r.responseBytesPerCall(), r.argumentBytes(), r.clientAllocPerCall(), r.serverAllocPerCall(),
                r.clientCpuMicrosPerCall(), r.serverCpuMicrosPerCall(), ratioToRaw);
    }

    /** The median of the known values (NaN left out), the mean of the middle two for an even count; NaN if none. */
    public static double median(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).filter(d -> !Double.isNaN(d)).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        int mid = v.length / 2;
        return v.length % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
    }
}
