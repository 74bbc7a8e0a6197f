package io.kestrel.rpc.perf.report;

import static io.kestrel.rpc.perf.report.ReportWriter.num;
import static io.kestrel.rpc.perf.report.Units.bytes;

import io.kestrel.rpc.perf.compare.Jdks;
import io.kestrel.rpc.perf.compare.PerfOptions;
import io.kestrel.rpc.perf.support.GitInfo;
import io.kestrel.rpc.perf.support.Workload;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleBiFunction;

/**
 * The report of a {@code --jdks} run: for every system and workload, the figures of each JDK in
 * adjacent columns ({@value #MARKDOWN}, {@value #CSV}); each JDK's full report stays in its
 * {@code jdk-<version>} directory.
 */
public final class JdkComparison {
    static final String MARKDOWN = "perf-report-jdks.md";
    static final String CSV = "perf-results-jdks.csv";

    /** One figure, as a column group: a value per JDK. */
    private record Metric(String name, String format, boolean bytes, ToDoubleBiFunction<RunResult, Baselines> value) {
    }

    private static final List<Metric> SYNC = List.of(
            new Metric("TPS", "%,.0f", false, (r, b) -> r.tps()),
            new Metric("x raw-rpc", "%.2f", false, (r, b) -> b.ratioToRawRpc(r)),
            new Metric("p99 us", "%,.0f", false, (r, b) -> r.p99Micros()),
            new Metric("client alloc", null, true, (r, b) -> r.clientAllocPerCall()),
            new Metric("server alloc", null, true, (r, b) -> r.serverAllocPerCall()),
            new Metric("own client B", null, true, (r, b) -> b.ownClientAlloc(r)),
            new Metric("own server B", null, true, (r, b) -> b.ownServerAlloc(r)),
            new Metric("client CPU us", "%.1f", false, (r, b) -> r.clientCpuMicrosPerCall()),
            new Metric("server CPU us", "%.1f", false, (r, b) -> r.serverCpuMicrosPerCall()));

    private static final List<Metric> PIPELINED = List.of(
            new Metric("TPS", "%,.0f", false, (r, b) -> r.tps()),
            new Metric("x sync", "%.2f", false, (r, b) -> b.ratioToSync(r)),
            new Metric("p99 us", "%,.0f", false, (r, b) -> r.p99Micros()),
            new Metric("p99.9 us", "%,.0f", false, (r, b) -> r.p999Micros()),
            new Metric("own client B", null, true, (r, b) -> b.ownClientAlloc(r)),
            new Metric("own server B", null, true, (r, b) -> b.ownServerAlloc(r)),
            new Metric("client CPU us", "%.1f", false, (r, b) -> r.clientCpuMicrosPerCall()),
            new Metric("server CPU us", "%.1f", false, (r, b) -> r.serverCpuMicrosPerCall()));

    private JdkComparison() {
    }

    /**
     * Writes the side-by-side report into {@code options.outputDir()}.
     *
     * @param rounds each JDK's results (its rounds, with {@code --rounds}), in the order the JDKs ran
     * @param failures a line for each JDK whose runner produced no results
     */
    public static PerfReport write(PerfOptions options, Map<Jdks.Jdk, Rounds> rounds,
            List<RunResult> failures) throws IOException {
        Path md = options.outputDir().resolve(MARKDOWN);
        Path csv = options.outputDir().resolve(CSV);
        List<Jdks.Jdk> jdks = new ArrayList<>(rounds.keySet());
        Map<Jdks.Jdk, List<RunResult>> results = new LinkedHashMap<>();
        rounds.forEach((jdk, r) -> results.put(jdk, r.combined()));
        // with several rounds, a JDK's ratios are the medians of the ratios within each of its rounds
        List<Baselines> baselines = jdks.stream().map(j -> rounds.get(j).baselines()).toList();
        StringBuilder text = new StringBuilder("# Kestrel RPC perf-test: JDKs side by side\n\n");
        text.append("- Date: ").append(ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME)).append('\n');
        text.append("- Commit: ").append(GitInfo.describeHead()).append('\n');
        text.append("- Options: ").append(options).append('\n');
        for (Jdks.Jdk j : options.jdks()) {
            text.append("- JDK ").append(j.label()).append(": ").append(j.version()).append(" at `").append(j.home())
                    .append("`, client and server JVMs; full report `jdk-").append(j.label()).append("/perf-report.md`")
                    .append(results.containsKey(j) ? "" : " (no results: see below)").append('\n');
        }
        text.append("""

                The JDKs ran one after the other (each whole matrix on one JDK, then the next), so a change in the \
                machine's load between them shows as a difference between the columns; compare ratios (`x raw-rpc`, \
                `x sync`) before absolute TPS, and repeat the run with the JDKs in the other order where it matters. \
                Columns are explained in each JDK's own report.

                """);
        if (options.rounds() > 1) {
            text.append("Each JDK ran ").append(options.rounds()).append(" rounds; its figures are combined as its own "
                    + "report's header says (median TPS, median of the ratios within each round).\n\n");
        }
        for (Workload w : Workload.values()) {
            appendTable(text, w.label() + ": " + w.description(), SYNC, jdks, results, baselines, w, false);
        }
        for (Workload w : Workload.values()) {
            appendTable(text, w.label() + ", pipelined", PIPELINED, jdks, results, baselines, w, true);
        }
        List<String> notOk = new ArrayList<>();
        for (RunResult f : failures) {
            notOk.add(f.system() + ": " + f.note());
        }
        for (Jdks.Jdk j : jdks) {
            for (RunResult r : results.get(j)) {
                if (r.status() != RunResult.Status.OK) {
                    notOk.add("JDK " + j.label() + ", " + r.system() + " / " + r.workload().label()
                            + (r.pipelined() ? " / " + r.inflight() + " in flight" : "") + ": " + r.status() + ", "
                            + r.note());
                }
            }
        }
        if (!notOk.isEmpty()) {
            text.append("## Failed or skipped\n\n");
            notOk.forEach(n -> text.append("- ").append(n.replace('\n', ' ')).append('\n'));
        }
        Files.writeString(md, text.toString(), StandardCharsets.UTF_8);

        StringBuilder rows = new StringBuilder("jdk,").append(ResultsCsv.HEADER).append('\n');
        for (int i = 0; i < jdks.size(); i++) {
            String body = ResultsCsv.write(results.get(jdks.get(i)), baselines.get(i));
            for (String line : body.substring(body.indexOf('\n') + 1).split("\n")) {
                if (!line.isEmpty()) {
                    rows.append(jdks.get(i).label()).append(',').append(line).append('\n');
                }
            }
        }
        Files.writeString(csv, rows.toString(), StandardCharsets.UTF_8);

        List<RunResult> all = new ArrayList<>(failures);
        results.values().forEach(all::addAll);
        return new PerfReport(all, null, md, csv, null);
    }

    private static void appendTable(StringBuilder text, String title, List<Metric> metrics, List<Jdks.Jdk> jdks,
            Map<Jdks.Jdk, List<RunResult>> results, List<Baselines> baselines, Workload w, boolean pipelined) {
        // rows: every (system, in flight) that ran on any JDK, in run order
        Set<String> keys = new LinkedHashSet<>();
        for (Jdks.Jdk j : jdks) {
            for (RunResult r : results.get(j)) {
                if (r.workload() == w && r.pipelined() == pipelined) {
                    keys.add(r.system() + '|' + r.inflight());
                }
            }
        }
        if (keys.isEmpty()) {
            return;
        }
        List<String> header = new ArrayList<>(List.of("system"));
        if (pipelined) {
            header.add("in flight");
        }
        for (Metric m : metrics) {
            for (Jdks.Jdk j : jdks) {
                header.add(m.name() + " " + j.label());
            }
        }
        boolean ratio = jdks.size() >= 2;
        if (ratio) {
            header.add("TPS " + jdks.get(jdks.size() - 1).label() + "/" + jdks.get(0).label());
        }
        List<String[]> rows = new ArrayList<>();
        for (String key : keys) {
            String system = key.substring(0, key.indexOf('|'));
            int inflight = Integer.parseInt(key.substring(key.indexOf('|') + 1));
            List<String> row = new ArrayList<>(List.of(system));
            if (pipelined) {
                row.add(Integer.toString(inflight));
            }
            RunResult[] perJdk = new RunResult[jdks.size()];
            for (int i = 0; i < jdks.size(); i++) {
                perJdk[i] = baselines.get(i).find(system, w, inflight);
            }
            for (Metric m : metrics) {
                for (int i = 0; i < jdks.size(); i++) {
                    double v = perJdk[i] == null ? Double.NaN : m.value().applyAsDouble(perJdk[i], baselines.get(i));
                    row.add(m.bytes() ? bytes(v) : num(v, m.format()));
                }
            }
            if (ratio) {
                RunResult first = perJdk[0];
                RunResult last = perJdk[jdks.size() - 1];
                row.add(first == null || last == null ? "-" : num(last.tps() / first.tps(), "%.2f"));
            }
            rows.add(row.toArray(String[]::new));
        }
        text.append("## ").append(title).append("\n\n");
        text.append(ReportWriter.markdownTable(header.toArray(String[]::new), rows)).append('\n');
    }
}
