package io.kestrel.rpc.perf.report;

import static io.kestrel.rpc.perf.report.Units.bytes;

import io.kestrel.rpc.perf.compare.PerfOptions;
import io.kestrel.rpc.perf.compare.system.BenchSystems;
import io.kestrel.rpc.perf.server.ServerProcess;
import io.kestrel.rpc.perf.support.GitInfo;
import io.kestrel.rpc.perf.support.Workload;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Renders results as a console table, a Markdown report ({@value #MARKDOWN}) and a CSV
 * ({@value #CSV}), and asks {@link ChartWriter} for the PNG chart.
 */
public final class ReportWriter {
    static final String MARKDOWN = "perf-report.md";
    static final String CSV = "perf-results.csv";
    /** Every round's rows, written when there is more than one round. */
    public static final String ROUNDS_CSV = "perf-results-rounds.csv";
    /** The column of the lowest and highest TPS of the rounds. */
    static final String TPS_RANGE = "TPS min-max";

    private static final String[] HEADER = {"system", "TPS", "x raw", "x raw-rpc", "mean us", "p50 us", "p99 us",
        "p99.9 us", "req B/call", "resp B/call", "req - arg B", "client alloc/call", "server alloc/call",
        "own client B", "own server B", "client CPU us", "server CPU us", "calls", "errors", "status"};

    private ReportWriter() {
    }

    /** Writes the report of {@code rounds}: one row per configuration, and the rounds' CSV if there are several. */
    public static PerfReport write(PerfOptions options, SerializedSizes sizes, AllocationBreakdown breakdown,
            Rounds rounds, double seconds, PrintStream console) throws IOException {
        Path dir = options.outputDir();
        Path md = dir.resolve(MARKDOWN);
        Path csv = dir.resolve(CSV);
        List<RunResult> results = rounds.combined();
        Files.writeString(csv, ResultsCsv.write(results, rounds.baselines()), StandardCharsets.UTF_8);
        if (rounds.count() > 1) {
            Files.writeString(dir.resolve(ROUNDS_CSV), ResultsCsv.writeRounds(rounds.perRound()),
                    StandardCharsets.UTF_8);
        }
        Path chart = dir.resolve(ChartWriter.FILE);
        String chartProblem = null;
        try {
            ChartWriter.write(results, options.workloads(), chart);
        } catch (IOException | RuntimeException | LinkageError e) {
            chartProblem = String.valueOf(e);
            console.println("Could not draw the chart: " + e);
            chart = null;
        }
        Files.writeString(md, markdown(options, sizes, breakdown, rounds, seconds, chart, chartProblem),
                StandardCharsets.UTF_8);
        return new PerfReport(results, sizes, md, csv, chart);
    }

    // ---------------------------------------------------------------- text tables

    public static String sizesText(SerializedSizes s) {
        return fixedWidth(sizesHeader(s), sizesRows(s));
    }

    private static String[] sizesHeader(SerializedSizes s) {
        List<String> head = new ArrayList<>();
        head.add("value");
        head.addAll(s.columns());
        return head.toArray(String[]::new);
    }

    private static List<String[]> sizesRows(SerializedSizes s) {
        List<String[]> rows = new ArrayList<>();
        for (int r = 0; r < s.rows().size(); r++) {
            String[] row = new String[s.columns().size() + 1];
            row[0] = s.rows().get(r);
            System.arraycopy(s.cells()[r], 0, row, 1, s.columns().size());
            rows.add(row);
        }
        return rows;
    }

    /** The console tables of {@code rounds}' combined rows. */
    public static String resultsText(Rounds rounds) {
        StringBuilder sb = new StringBuilder();
        for (Workload w : Workload.values()) {
            List<String[]> rows = rowsOf(rounds, w);
            if (!rows.isEmpty()) {
                sb.append(w.label()).append(": ").append(w.description()).append('\n');
                sb.append(fixedWidth(header(rounds), rows)).append('\n');
            }
        }
        for (Workload w : Workload.values()) {
            List<String[]> rows = PipelinedTables.rows(rounds, w);
            if (!rows.isEmpty()) {
                sb.append(w.label()).append(", pipelined: ").append(w.description()).append('\n');
                sb.append(fixedWidth(PipelinedTables.header(rounds), rows)).append('\n');
            }
        }
        return sb.toString();
    }

    /** The header of the synchronous runs' tables. */
    static String[] header(Rounds rounds) {
        return withTpsRange(HEADER, HEADER, rounds, TPS_RANGE);
    }

    /**
     * A row (or {@code header} itself) of a table with that header, with {@code range} after its "TPS"
     * column when there are several rounds; unchanged for one round, which has no spread to show.
     */
    static String[] withTpsRange(String[] cells, String[] header, Rounds rounds, String range) {
        if (rounds.count() == 1) {
            return cells;
        }
        List<String> out = new ArrayList<>(List.of(cells));
        out.add(List.of(header).indexOf("TPS") + 1, range);
        return out.toArray(String[]::new);
    }

    private static List<String[]> rowsOf(Rounds rounds, Workload w) {
        Baselines baselines = rounds.baselines();
        List<String[]> rows = new ArrayList<>();
        for (RunResult r : rounds.combined()) {
            if (r.workload() != w || r.pipelined()) {
                continue;
            }
            String[] cells = {r.system(), num(r.tps(), "%,.0f"), num(r.ratioToRaw(), "%.2f"),
                num(baselines.ratioToRawRpc(r), "%.2f"), num(r.meanMicros(), "%,.0f"), num(r.p50Micros(), "%,.0f"),
                num(r.p99Micros(), "%,.0f"), num(r.p999Micros(), "%,.0f"), num(r.requestBytesPerCall(), "%,.0f"),
                num(r.responseBytesPerCall(), "%,.0f"), num(r.requestOverheadBytes(), "%,.0f"),
                bytes(r.clientAllocPerCall()), bytes(r.serverAllocPerCall()), bytes(baselines.ownClientAlloc(r)),
                bytes(baselines.ownServerAlloc(r)), num(r.clientCpuMicrosPerCall(), "%.1f"),
                num(r.serverCpuMicrosPerCall(), "%.1f"), String.format(Locale.ROOT, "%,d", r.calls()),
                Long.toString(r.errors()), r.status().name()};
            rows.add(withTpsRange(cells, HEADER, rounds, rounds.tpsRange(r)));
        }
        return rows;
    }

    static String fixedWidth(String[] header, List<String[]> rows) {
        int[] width = new int[header.length];
        for (int i = 0; i < header.length; i++) {
            width[i] = header[i].length();
            for (String[] row : rows) {
                width[i] = Math.max(width[i], row[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        appendFixed(sb, header, width);
        StringBuilder rule = new StringBuilder();
        for (int w : width) {
            rule.append("-".repeat(w)).append("  ");
        }
        sb.append(rule.toString().stripTrailing()).append('\n');
        for (String[] row : rows) {
            appendFixed(sb, row, width);
        }
        return sb.toString();
    }

    private static void appendFixed(StringBuilder sb, String[] cells, int[] width) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            String pad = " ".repeat(width[i] - cells[i].length());
            line.append(i == 0 ? cells[i] + pad : pad + cells[i]).append("  ");
        }
        sb.append(line.toString().stripTrailing()).append('\n');
    }

    // ---------------------------------------------------------------- markdown

    private static String markdown(PerfOptions options, SerializedSizes sizes, AllocationBreakdown breakdown,
            Rounds rounds, double seconds, Path chart, String chartProblem) {
        List<RunResult> results = rounds.combined();
        StringBuilder md = new StringBuilder();
        md.append("# Kestrel RPC perf-test report\n\n");
        md.append("- Date: ").append(ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME)).append('\n');
        md.append("- Commit: ").append(GitInfo.describeHead()).append('\n');
        md.append("- Machine: ").append(Runtime.getRuntime().availableProcessors()).append(" CPUs, ")
                .append(System.getProperty("os.name")).append(' ').append(System.getProperty("os.arch"))
                .append(", Java ").append(System.getProperty("java.vm.name")).append(' ')
                .append(System.getProperty("java.version")).append('\n');
        md.append("- Options: ").append(options).append('\n');
        md.append("- Client JVM flags: `").append(String.join(" ", shortFlags(
                ManagementFactory.getRuntimeMXBean().getInputArguments()))).append("`\n");
        md.append("- Server JVM flags: `").append(String.join(" ", ServerProcess.SERVER_HEAP))
                .append(" <fst --add-opens> ").append(String.join(" ", options.serverJvmArgs())).append("`\n");
        md.append("- Duration: ").append(Units.clock(seconds)).append('\n');
        md.append(rounds.reportLine()).append('\n');
        md.append("Server and client run in separate JVMs on 127.0.0.1 and share the machine's CPUs, so absolute "
                + "figures depend on the machine and on whatever else runs; compare systems by their ratio to raw "
                + "Netty within one run.\n\n");

        md.append("## Systems\n\n");
        for (String name : options.systems()) {
            md.append("- `").append(name).append("`: ")
                    .append(BenchSystems.create(name, options.settings()).description()).append('\n');
        }

        md.append("\n## Serialized sizes (bytes)\n\n");
        md.append("With the `DemoOptimizer` registrations unless noted; `!` means the value did not read back equal; "
                + "`n/a` means the serialization is not installed.\n\n");
        md.append(markdownTable(sizesHeader(sizes), sizesRows(sizes)));

        md.append("\n## Results\n\n");
        if (chart != null) {
            md.append("![TPS and bytes per call](").append(chart.getFileName()).append(")\n\n");
        } else {
            md.append("(No chart: ").append(chartProblem).append(")\n\n");
        }
        Baselines baselines = rounds.baselines();
        for (Workload w : Workload.values()) {
            List<String[]> rows = rowsOf(rounds, w);
            if (!rows.isEmpty()) {
                md.append("### ").append(w.label()).append(": ").append(w.description()).append("\n\n");
                md.append(markdownTable(header(rounds), rows)).append('\n');
            }
        }
        md.append(PipelinedTables.markdown(options, rounds));
        List<RunResult> notOk = results.stream().filter(r -> r.status() != RunResult.Status.OK).toList();
        if (!notOk.isEmpty()) {
            md.append("### Failed or skipped\n\n");
            for (RunResult r : notOk) {
                md.append("- ").append(r.system()).append(" / ").append(r.workload().label())
                        .append(r.pipelined() ? " / " + r.inflight() + " in flight" : "").append(": ")
                        .append(r.status()).append(", ").append(r.note().replace('\n', ' ')).append('\n');
            }
            md.append('\n');
        }

        md.append("## Targets of this round\n\n");
        md.append(RoundTargets.markdown(rounds));
        md.append(FairTargets.markdown(results, baselines));

        md.append("\n## Where the allocation of a bid call goes\n\n");
        md.append("Per-step allocation measured on one thread of the runner's JVM (serializers with the DemoOptimizer), "
                + "against the per-call allocation measured end to end for `kestrel-<serialization>` / bid. The "
                + "remainder is what the framework and transport add per call (frames, buffers, futures, proxy, "
                + "invocation objects) plus background threads of the JVM.\n\n");
        md.append(BreakdownTables.markdown(breakdown, results));

        md.append("\n## How it is measured\n\n");
        md.append("""
                - Each configuration: `threads` client threads each call synchronously in a loop; warm-up, then the
                  measured window. A call counts if it starts and ends inside the window. TPS = counted calls / window.
                - Latency: per-thread HdrHistogram in nanoseconds (3 significant digits), merged; shown in microseconds.
                - `req B/call`, `resp B/call`: bytes the client wrote to / read from its sockets during the window,
                  divided by the counted calls. For REST and raw Netty a handler at the head of the client pipeline
                  counts them; for the framework `RpcRuntime.inspect().snapshot().wire()`.
                - `req - arg B`: request bytes per call minus the argument in the system's own encoding (serialized
                  argument, JSON body, raw payload): headers, framing, method and service names.
                - `client alloc/call`, `server alloc/call`: sum of `ThreadMXBean.getThreadAllocatedBytes` over all
                  live threads of the JVM, before and after the window, divided by the counted calls. The server
                  JVM reports its own figure over its stdin/stdout control channel.
                - `x raw`: TPS divided by the raw Netty TPS of the same workload in this run. Raw Netty echoes the
                  precomputed serialized result for the serialized argument over a length-prefixed frame, with no
                  (de)serialization and no dispatch: the practical limit of the transport.
                - `x raw-rpc`: TPS divided by the TPS of `raw-rpc-<serialization>` (same workload, same calls in
                  flight) in this run: a minimal RPC on raw Netty (length prefix, request id, one shared connection,
                  futures matched by id) with the very serializer of `kestrel-<serialization>`, which does the same
                  four (de)serializations, the server's on its event loop. Between the two the only difference is the
                  framework, so this is the fair ratio; `x raw` mixes in the serializer's cost.
                - `own client B`, `own server B`: the framework's own allocation per call on each side,
                  `kestrel-<serialization>` minus `raw-rpc-<serialization>` of the same workload: both make the same
                  (de)serializations and service calls, so what remains is the framework's (frames, futures, proxy,
                  invocation, dispatch). A TLS or observed system is compared with the plain minimal RPC, so its
                  own figures include TLS or metrics and tracing.
                - `client CPU us`, `server CPU us`: CPU time of the client's and the server's JVM process per counted
                  call (`OperatingSystemMXBean.getProcessCpuTime`, all threads, read before and after the window; the
                  server JVM reports its own). Unlike TPS it hardly depends on what else the machine runs, so on a
                  loaded machine compare systems by it. It includes the JVM's background work (JIT, GC).
                - Pipelined runs (`--inflight`): see that section.
                """);
        return md.toString();
    }

    /** The console table of where a bid call's allocation goes ({@link BreakdownTables}). */
    public static String breakdownText(AllocationBreakdown b) {
        return BreakdownTables.text(b);
    }

    static String verdict(boolean met, double value) {
        return Double.isNaN(value) ? "unknown" : met ? "met" : "not met";
    }

    /** The synchronous run of {@code system} on {@code w}, or null. */
    static RunResult find(List<RunResult> results, String system, Workload w) {
        return results.stream().filter(r -> r.system().equals(system) && r.workload() == w && !r.pipelined())
                .findFirst().orElse(null);
    }

    static String markdownTable(String[] header, List<String[]> rows) {
        StringBuilder sb = new StringBuilder();
        sb.append("| ").append(String.join(" | ", header)).append(" |\n|");
        for (int i = 0; i < header.length; i++) {
            sb.append(i == 0 ? "---|" : "---:|");
        }
        sb.append('\n');
        for (String[] row : rows) {
            sb.append("| ").append(String.join(" | ", row)).append(" |\n");
        }
        return sb.toString();
    }

    // ---------------------------------------------------------------- helpers

    static String num(double v, String format) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "-" : String.format(Locale.ROOT, format, v);
    }

    /** The long --add-opens list would drown the line; it is named once instead. */
    private static List<String> shortFlags(List<String> flags) {
        List<String> out = new ArrayList<>();
        boolean opens = false;
        for (String f : flags) {
            if (f.startsWith("--add-opens")) {
                if (!opens) {
                    out.add("<fst --add-opens>");
                    opens = true;
                }
            } else {
                out.add(f);
            }
        }
        return out;
    }
}
