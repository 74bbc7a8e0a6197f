package io.kestrel.rpc.perf.report;

import static io.kestrel.rpc.perf.report.ReportWriter.num;
import static io.kestrel.rpc.perf.report.Units.bytes;

import io.kestrel.rpc.perf.compare.PerfOptions;
import io.kestrel.rpc.perf.support.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The report's tables of the pipelined runs ({@code --inflight}), one per workload. */
final class PipelinedTables {
    static final String[] HEADER = {"system", "in flight", "callers", "TPS", "x sync", "x raw-rpc", "mean us",
        "p50 us", "p99 us", "p99.9 us", "client alloc/call", "server alloc/call", "own client B", "own server B",
        "calls", "errors", "status"};

    private PipelinedTables() {
    }

    /** The rows of the pipelined runs of {@code w}, in run order. */
    static List<String[]> rows(List<RunResult> results, Baselines baselines, Workload w) {
        List<String[]> rows = new ArrayList<>();
        for (RunResult r : results) {
            if (r.workload() != w || !r.pipelined()) {
                continue;
            }
            rows.add(new String[] {r.system(), Integer.toString(r.inflight()), Integer.toString(r.threads()),
                num(r.tps(), "%,.0f"), num(baselines.ratioToSync(r), "%.2f"), num(baselines.ratioToRawRpc(r), "%.2f"),
                num(r.meanMicros(), "%,.0f"), num(r.p50Micros(), "%,.0f"), num(r.p99Micros(), "%,.0f"),
                num(r.p999Micros(), "%,.0f"), bytes(r.clientAllocPerCall()), bytes(r.serverAllocPerCall()),
                bytes(baselines.ownClientAlloc(r)), bytes(baselines.ownServerAlloc(r)),
                String.format(Locale.ROOT, "%,d", r.calls()), Long.toString(r.errors()), r.status().name()});
        }
        return rows;
    }

    /** The report's section on the pipelined runs, or "" if there were none. */
    static String markdown(PerfOptions options, List<RunResult> results, Baselines baselines) {
        if (results.stream().noneMatch(RunResult::pipelined)) {
            return "";
        }
        StringBuilder md = new StringBuilder("## Pipelined asynchronous calls\n\n");
        md.append(String.format(Locale.ROOT, """
                %d caller thread(s) keep N calls in flight together over the client's one connection, starting a new \
                call as soon as one completes (`kestrel-*`: the `CompletableFuture` methods `bidAsync`, `echoAsync`, \
                `existsAsync` of `BenchmarkService`; `raw-rpc-*`: the minimal RPC's futures). A call counts when it \
                completes inside the window; its latency runs from its start to its completion. `x sync` is TPS \
                divided by the same system's synchronous TPS (%d threads) on the workload in this run; `x raw-rpc` \
                compares with the minimal RPC at the same N. The client allocation includes the driver's completion \
                callback, in every system alike.

                """, options.asyncCallers(), options.threads()));
        for (Workload w : Workload.values()) {
            List<String[]> rows = rows(results, baselines, w);
            if (!rows.isEmpty()) {
                md.append("### ").append(w.label()).append(", pipelined\n\n");
                md.append(ReportWriter.markdownTable(HEADER, rows)).append('\n');
            }
        }
        return md.toString();
    }
}
