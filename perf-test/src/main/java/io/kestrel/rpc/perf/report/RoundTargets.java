package io.kestrel.rpc.perf.report;

import static io.kestrel.rpc.perf.report.ReportWriter.find;
import static io.kestrel.rpc.perf.report.ReportWriter.markdownTable;
import static io.kestrel.rpc.perf.report.ReportWriter.num;
import static io.kestrel.rpc.perf.report.ReportWriter.verdict;
import static io.kestrel.rpc.perf.report.Units.bytes;

import io.kestrel.rpc.perf.compare.system.BenchSystems;
import io.kestrel.rpc.perf.support.Workload;
import java.util.ArrayList;
import java.util.List;

/**
 * The report's "Targets of this round" on the bid workload: kestrel-kryo against raw Netty and the best REST system,
 * its request overhead and allocation, and the observed systems against the same system unobserved.
 */
final class RoundTargets {
    private RoundTargets() {
    }

    /** The table of the targets, or why it cannot be drawn. */
    static String markdown(Rounds rounds) {
        List<RunResult> results = rounds.combined();
        RunResult kryo = find(results, "kestrel-kryo", Workload.BID);
        RunResult raw = find(results, "raw-netty", Workload.BID);
        RunResult bestRest = results.stream()
                .filter(r -> r.workload() == Workload.BID && r.system().startsWith("rest-")
                        && r.status() == RunResult.Status.OK)
                .max((a, b) -> Double.compare(a.tps(), b.tps())).orElse(null);
        List<String[]> rows = new ArrayList<>();
        if (kryo == null || kryo.status() != RunResult.Status.OK) {
            return "kestrel-kryo / bid did not run successfully" + (kryo != null ? ": " + kryo.note() : "") + ".\n";
        }
        double vsRaw = raw != null && raw.status() == RunResult.Status.OK ? rounds.medianRatio(kryo, raw) : Double.NaN;
        rows.add(new String[] {"kestrel-kryo bid TPS / raw Netty TPS", num(vsRaw, "%.2f"), ">= 0.8", verdict(vsRaw >= 0.8, vsRaw)});
        double vsRest = bestRest != null ? rounds.medianRatio(kryo, bestRest) : Double.NaN;
        rows.add(new String[] {"kestrel-kryo bid TPS / best REST TPS" + (bestRest != null ? " (" + bestRest.system() + ")" : ""),
            num(vsRest, "%.2f"), ">= 3", verdict(vsRest >= 3, vsRest)});
        double overhead = kryo.requestOverheadBytes();
        rows.add(new String[] {"kestrel-kryo bid request bytes/call - serialized argument (" + kryo.argumentBytes() + " B)",
            num(overhead, "%.1f"), "<= 32", verdict(overhead <= 32, overhead)});
        rows.add(new String[] {"kestrel-kryo bid allocation per call, client / server",
            bytes(kryo.clientAllocPerCall()) + " / " + bytes(kryo.serverAllocPerCall()), "reported", "reported"});
        for (String serialization : BenchSystems.OBSERVED_SERIALIZATIONS) {
            RunResult off = find(results, "kestrel-" + serialization, Workload.BID);
            for (String suffix : List.of(BenchSystems.OBSERVED, BenchSystems.OTEL)) {
                RunResult on = find(results, "kestrel-" + serialization + suffix, Workload.BID);
                if (off != null && on != null) {
                    double ratio = off.status() == RunResult.Status.OK && on.status() == RunResult.Status.OK
                            ? rounds.medianRatio(on, off) : Double.NaN;
                    rows.add(new String[] {on.system() + " bid TPS / " + off.system() + " (metrics + tracing through "
                        + (suffix.equals(BenchSystems.OTEL) ? "KestrelOpenTelemetry" : "KestrelTracing") + ")",
                        num(ratio, "%.2f"), ">= 0.9", verdict(ratio >= 0.9, ratio)});
                }
            }
        }
        return markdownTable(new String[] {"target", "measured", "wanted", "verdict"}, rows);
    }
}
