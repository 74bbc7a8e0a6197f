package io.kestrel.rpc.perf.report;

import static io.kestrel.rpc.perf.report.ReportWriter.num;
import static io.kestrel.rpc.perf.report.ReportWriter.verdict;
import static io.kestrel.rpc.perf.report.Units.bytes;

import io.kestrel.rpc.perf.compare.system.BenchSystems;
import io.kestrel.rpc.perf.support.Workload;
import java.util.ArrayList;
import java.util.List;

/**
 * The targets of issues 16 and 36 as measured in one run: each framework serialization against its own
 * minimal RPC on every workload (the default dispatch >= 0.9x, {@code -direct} >= 1.0x, 256 calls in flight >= 0.9x
 * the minimal RPC's with as many), pipelined with 256 calls in flight against the 10-thread
 * synchronous TPS (>= 2x), and the framework's own allocation per call and side (<= 256 B). Rows
 * appear only for what ran.
 */
final class FairTargets {
    static final List<String> SERIALIZATIONS = List.of("kryo", "fory");
    static final double MIN_RATIO_TO_RAW_RPC = 0.9;
    /** Direct dispatch (the service on the I/O thread, as the minimal RPC's) is wanted at the minimal RPC's speed. */
    static final double MIN_DIRECT_RATIO = 1.0;
    static final int PIPELINED_INFLIGHT = 256;
    static final double MIN_PIPELINED_RATIO = 2.0;
    static final double MAX_OWN_ALLOC_BYTES = 256;

    private FairTargets() {
    }

    static String markdown(List<RunResult> results, Baselines baselines) {
        List<String[]> rows = new ArrayList<>();
        for (String s : SERIALIZATIONS) {
            String system = "kestrel-" + s;
            ratioRows(rows, baselines, system, s, 0, MIN_RATIO_TO_RAW_RPC);
            ratioRows(rows, baselines, system + BenchSystems.DIRECT, s, 0, MIN_DIRECT_RATIO);
            ratioRows(rows, baselines, system, s, PIPELINED_INFLIGHT, MIN_RATIO_TO_RAW_RPC);
            for (Workload w : Workload.values()) {
                RunResult r = baselines.find(system, w, PIPELINED_INFLIGHT);
                if (r == null) {
                    continue;
                }
                double ratio = baselines.ratioToSync(r);
                rows.add(new String[] {system + " " + w.label() + " TPS with " + PIPELINED_INFLIGHT
                        + " in flight / synchronous", num(ratio, "%.2f"), ">= " + MIN_PIPELINED_RATIO,
                    verdict(ratio >= MIN_PIPELINED_RATIO, ratio)});
            }
            for (Workload w : Workload.values()) {
                RunResult r = baselines.find(system, w, 0);
                if (r == null) {
                    continue;
                }
                double client = baselines.ownClientAlloc(r);
                double server = baselines.ownServerAlloc(r);
                double worst = Double.isNaN(client) || Double.isNaN(server) ? Double.NaN : Math.max(client, server);
                rows.add(new String[] {system + " " + w.label() + " framework-own allocation per call, client / server",
                    bytes(client) + " / " + bytes(server), "<= " + (int) MAX_OWN_ALLOC_BYTES + " B each",
                    verdict(worst <= MAX_OWN_ALLOC_BYTES, worst)});
            }
        }
        if (rows.isEmpty()) {
            return "";
        }
        return "\nAgainst the minimal RPC of the same serialization (issue 16):\n\n"
                + ReportWriter.markdownTable(new String[] {"target", "measured", "wanted", "verdict"}, rows);
    }

    /**
     * One row per workload: {@code system}'s TPS over the same serializer's minimal RPC with as many calls in flight
     * ({@code inflight} 0: the synchronous rows).
     */
    private static void ratioRows(List<String[]> rows, Baselines baselines, String system, String serialization,
            int inflight, double wanted) {
        for (Workload w : Workload.values()) {
            RunResult r = baselines.find(system, w, inflight);
            if (r == null) {
                continue;
            }
            double ratio = baselines.ratioToRawRpc(r);
            rows.add(new String[] {system + " " + w.label() + (inflight > 0 ? " with " + inflight + " in flight" : "")
                    + " TPS / raw-rpc-" + serialization + (inflight > 0 ? "'s" : ""), num(ratio, "%.2f"),
                ">= " + wanted, verdict(ratio >= wanted, ratio)});
        }
    }
}
