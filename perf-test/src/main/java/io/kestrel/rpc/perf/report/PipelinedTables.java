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
        "client CPU us", "server CPU us", "calls", "errors", "status"};

    private PipelinedTables() {
    }

    /** The header of the tables, with the spread of the rounds' TPS if there are several. */
    static String[] header(Rounds rounds) {
        return ReportWriter.withTpsRange(HEADER, HEADER, rounds, ReportWriter.TPS_RANGE);
    }

    /** The rows of the pipelined runs of {@code w}, in run order. */
    static List<String[]> rows(Rounds rounds, Workload w) {
        Baselines baselines = rounds.baselines();
        List<String[]> rows = new ArrayList<>();
        for (RunResult r : rounds.combined()) {
            if (r.workload() != w || !r.pipelined()) {
                continue;
            }
            String[] cells = {r.system(), Integer.toString(r.inflight()), Integer.toString(r.threads()),
                num(r.tps(), "%,.0f"), num(baselines.ratioToSync(r), "%.2f"), num(baselines.ratioToRawRpc(r), "%.2f"),
                num(r.meanMicros(), "%,.0f"), num(r.p50Micros(), "%,.0f"), num(r.p99Micros(), "%,.0f"),
                num(r.p999Micros(), "%,.0f"), bytes(r.clientAllocPerCall()), bytes(r.serverAllocPerCall()),
                bytes(baselines.ownClientAlloc(r)), bytes(baselines.ownServerAlloc(r)),
                num(r.clientCpuMicrosPerCall(), "%.1f"), num(r.serverCpuMicrosPerCall(), "%.1f"),
                String.format(Locale.ROOT, "%,d", r.calls()), Long.toString(r.errors()), r.status().name()};
            rows.add(ReportWriter.withTpsRange(cells, HEADER, rounds, rounds.tpsRange(r)));
        }
        return rows;
    }

    /** The report's section on the pipelined runs, or "" if there were none. */
    static String markdown(PerfOptions options, Rounds rounds) {
        if (rounds.combined().stream().noneMatch(RunResult::pipelined)) {
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
            List<String[]> rows = rows(rounds, w);
            if (!rows.isEmpty()) {
                md.append("### ").append(w.label()).append(", pipelined\n\n");
                md.append(ReportWriter.markdownTable(header(rounds), rows)).append('\n');
            }
        }
        return md.toString();
    }
}
