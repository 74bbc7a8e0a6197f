package io.kestrel.rpc.perf.report;

import static io.kestrel.rpc.perf.report.ReportWriter.num;
import static io.kestrel.rpc.perf.report.ReportWriter.verdict;
import static io.kestrel.rpc.perf.report.Units.bytes;

import io.kestrel.rpc.perf.support.Workload;
import java.util.ArrayList;
import java.util.List;

/**
 * The targets of issue 16 as measured in one run: each framework serialization against its own
 * minimal RPC on every workload (>= 0.9x), pipelined with 256 calls in flight against the 10-thread
 * synchronous TPS (>= 2x), and the framework's own allocation per call and side (<= 256 B). Rows
 * appear only for what ran.
 */
final class FairTargets {
    static final List<String> SERIALIZATIONS = List.of("kryo", "fory");
    static final double MIN_RATIO_TO_RAW_RPC = 0.9;
    static final int PIPELINED_INFLIGHT = 256;
    static final double MIN_PIPELINED_RATIO = 2.0;
    static final double MAX_OWN_ALLOC_BYTES = 256;

    private FairTargets() {
    }

    static String markdown(List<RunResult> results, Baselines baselines) {
        List<String[]> rows = new ArrayList<>();
        for (String s : SERIALIZATIONS) {
            String system = "kestrel-" + s;
            for (Workload w : Workload.values()) {
                RunResult r = baselines.find(system, w, 0);
                if (r == null) {
                    continue;
                }
                double ratio = baselines.ratioToRawRpc(r);
                rows.add(new String[] {system + " " + w.label() + " TPS / raw-rpc-" + s, num(ratio, "%.2f"),
                    ">= " + MIN_RATIO_TO_RAW_RPC, verdict(ratio >= MIN_RATIO_TO_RAW_RPC, ratio)});
            }
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
}
