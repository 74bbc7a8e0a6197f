package io.kestrel.rpc.perf.streams;

import io.kestrel.rpc.perf.report.Rounds;
import io.kestrel.rpc.perf.support.GitInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The streams report: {@code streams-report.md} (per system the medians over the rounds, min-max, and the medians
 * of the per-round ratios to grpc-java and to the system's raw loop, then the targets with verdicts) and
 * {@code streams-rounds.csv} (every round's figures).
 */
final class StreamReport {
    /** The targets for a framework system. */
    static final double FEED_VS_GRPC = 2.0;
    static final double FEED_VS_RAW = 0.8;
    static final double OVERHEAD_BYTES = 16;
    static final double UNARY_P99_RATIO = 2.0;

    private final StreamOptions options;
    private final List<StreamRound> rows;
    private final Map<String, List<StreamRound>> bySystem = new LinkedHashMap<>();
    private final Map<String, StreamSystem> systems = new LinkedHashMap<>();

    StreamReport(StreamOptions options, List<StreamRound> rows) {
        this.options = options;
        this.rows = rows;
        for (StreamRound r : rows) {
            bySystem.computeIfAbsent(r.system(), k -> new ArrayList<>()).add(r);
            systems.computeIfAbsent(r.system(), StreamSystems::create);
        }
    }

    /** Writes both files into the output directory; returns the report's path. */
    Path write() throws IOException {
        Path dir = options.outputDir();
        Files.createDirectories(dir);
        StringBuilder csv = new StringBuilder(StreamRound.CSV_HEADER).append('\n');
        rows.forEach(r -> csv.append(r.csv()).append('\n'));
        Files.writeString(dir.resolve("streams-rounds.csv"), csv, StandardCharsets.UTF_8);
        Path report = dir.resolve("streams-report.md");
        Files.writeString(report, markdown(), StandardCharsets.UTF_8);
        return report;
    }

    String markdown() {
        StringBuilder md = new StringBuilder("# Streams\n\n");
        md.append("- Measured: ").append(Instant.now()).append(", commit ").append(GitInfo.describeHead())
                .append(", JDK ").append(System.getProperty("java.version")).append(", ")
                .append(Runtime.getRuntime().availableProcessors()).append(" CPUs\n");
        md.append(String.format(Locale.ROOT, "- %d round(s); %d streams at once; server streaming %,d messages per"
                + " stream; ping-pong %,d round trips per stream; unary probe %,d calls; payload %d bytes; a warm-up"
                + " pass of a quarter of each size before each measured pass%n", options.rounds(), options.streams(),
                options.messages(), options.trips(), options.unaryCalls(), options.payload()));
        md.append("- Server and client in separate JVMs on loopback. Medians over the rounds, [min-max]; `x grpc` and"
                + " `x raw` are the medians of the ratios taken within each round. Wire bytes are counted on the"
                + " client's socket, both directions, per message; overhead = wire bytes - the serialized message."
                + " CPU is each JVM's process CPU time per message (per round trip for ping-pong).\n\n");
        for (Map.Entry<String, StreamSystem> e : systems.entrySet()) {
            md.append("- `").append(e.getKey()).append("`: ").append(e.getValue().description()).append('\n');
        }
        md.append("\n## Server streaming\n\n`CPU x grpc`, `CPU x raw`: the other system's CPU per message (client +"
                + " server) over this one's, the medians of the per-round ratios: like `x grpc` and `x raw`, higher is"
                + " better, and unlike them it hardly depends on what else the machine runs.\n\n"
                + "| system | msgs/s | x grpc | x raw | CPU x grpc | CPU x raw | msg B | wire B/msg | overhead B/msg |"
                + " client CPU us/msg | server CPU us/msg |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (String s : bySystem.keySet()) {
            List<StreamRound> rs = bySystem.get(s);
            md.append("| ").append(s).append(" | ").append(spread(rs, StreamRound::feedRate, "%,.0f")).append(" | ")
                    .append(ratio(s, GrpcStreamSystem.NAME, StreamRound::feedRate)).append(" | ")
                    .append(ratio(s, systems.get(s).rawLoop(), StreamRound::feedRate)).append(" | ")
                    .append(ratio(s, GrpcStreamSystem.NAME, StreamReport::feedCpuEfficiency)).append(" | ")
                    .append(ratio(s, systems.get(s).rawLoop(), StreamReport::feedCpuEfficiency)).append(" | ")
                    .append(rs.get(0).messageBytes()).append(" | ")
                    .append(fmt(median(rs, StreamRound::feedWirePerMessage), "%.1f")).append(" | ")
                    .append(fmt(feedOverhead(s), "%.1f")).append(" | ")
                    .append(fmt(median(rs, r -> StreamRound.perUnit(r.feedClientCpu(), r.feedMessages())), "%.2f"))
                    .append(" | ")
                    .append(fmt(median(rs, r -> StreamRound.perUnit(r.feedServerCpu(), r.feedMessages())), "%.2f"))
                    .append(" |\n");
        }
        md.append("\n## Bidirectional ping-pong\n\n| system | round trips/s | x grpc | x raw | wire B/msg |"
                + " overhead B/msg | client CPU us/trip | server CPU us/trip |\n|---|---|---|---|---|---|---|---|\n");
        for (String s : bySystem.keySet()) {
            List<StreamRound> rs = bySystem.get(s);
            md.append("| ").append(s).append(" | ").append(spread(rs, StreamRound::pingRate, "%,.0f")).append(" | ")
                    .append(ratio(s, GrpcStreamSystem.NAME, StreamRound::pingRate)).append(" | ")
                    .append(ratio(s, systems.get(s).rawLoop(), StreamRound::pingRate)).append(" | ")
                    .append(fmt(median(rs, StreamRound::pingWirePerMessage), "%.1f")).append(" | ")
                    .append(fmt(median(rs, r -> r.pingWirePerMessage() - r.messageBytes()), "%.1f")).append(" | ")
                    .append(fmt(median(rs, r -> StreamRound.perUnit(r.pingClientCpu(), r.trips())), "%.2f"))
                    .append(" | ")
                    .append(fmt(median(rs, r -> StreamRound.perUnit(r.pingServerCpu(), r.trips())), "%.2f"))
                    .append(" |\n");
        }
        md.append("\n## Unary p99 on the same connection\n\n| system | p99 us alone | p99 us beside a server stream |"
                + " with / alone |\n|---|---|---|---|\n");
        for (String s : bySystem.keySet()) {
            List<StreamRound> rs = bySystem.get(s);
            if (Double.isNaN(median(rs, StreamRound::unaryP99Alone))) {
                continue;
            }
            md.append("| ").append(s).append(" | ").append(spread(rs, StreamRound::unaryP99Alone, "%,.0f"))
                    .append(" | ").append(spread(rs, StreamRound::unaryP99WithStream, "%,.0f")).append(" | ")
                    .append(fmt(unaryRatio(s), "%.2f")).append(" |\n");
        }
        md.append("\n## Targets (issue 37)\n\n| system | target | measured | met? |\n|---|---|---|---|\n");
        for (String s : bySystem.keySet()) {
            if (!s.startsWith(KestrelStreamSystem.PREFIX)) {
                continue;
            }
            target(md, s, ">= " + FEED_VS_GRPC + "x grpc msgs/s, server streaming",
                    ratioMedian(s, GrpcStreamSystem.NAME, StreamRound::feedRate), v -> v >= FEED_VS_GRPC);
            target(md, s, "the same by CPU per message (grpc's CPU / this one's; load-independent)",
                    ratioMedian(s, GrpcStreamSystem.NAME, StreamReport::feedCpuEfficiency), v -> v >= FEED_VS_GRPC);
            target(md, s, ">= " + FEED_VS_RAW + "x the raw loop's msgs/s, server streaming",
                    ratioMedian(s, systems.get(s).rawLoop(), StreamRound::feedRate), v -> v >= FEED_VS_RAW);
            target(md, s, "the same by CPU per message (the raw loop's CPU / this one's)",
                    ratioMedian(s, systems.get(s).rawLoop(), StreamReport::feedCpuEfficiency), v -> v >= FEED_VS_RAW);
            target(md, s, "<= " + (int) OVERHEAD_BYTES + " B/msg on the wire beyond the message, server streaming",
                    feedOverhead(s), v -> v <= OVERHEAD_BYTES);
            target(md, s, "unary p99 beside a stream <= " + UNARY_P99_RATIO + "x alone", unaryRatio(s),
                    v -> v <= UNARY_P99_RATIO);
        }
        return md.toString();
    }

    private interface Check {
        boolean met(double v);
    }

    private static void target(StringBuilder md, String system, String what, double value, Check check) {
        md.append("| ").append(system).append(" | ").append(what).append(" | ").append(fmt(value, "%.2f"))
                .append(" | ").append(Double.isNaN(value) ? "not measured" : check.met(value) ? "yes" : "no")
                .append(" |\n");
    }

    /** Messages per CPU microsecond, client and server together: the ratio of two is the inverse of their CPU. */
    static double feedCpuEfficiency(StreamRound r) {
        if (r.feedClientCpu() < 0 || r.feedServerCpu() < 0) {
            return Double.NaN;
        }
        return r.feedMessages() * 1000.0 / (r.feedClientCpu() + r.feedServerCpu());
    }

    double feedOverhead(String system) {
        return median(bySystem.get(system), r -> r.feedWirePerMessage() - r.messageBytes());
    }

    double unaryRatio(String system) {
        return median(bySystem.get(system), r -> r.unaryP99WithStream() / r.unaryP99Alone());
    }

    /** The median over the rounds of {@code system}'s figure divided by {@code base}'s in the same round. */
    double ratioMedian(String system, String base, ToDoubleFunction<StreamRound> figure) {
        if (base == null || !bySystem.containsKey(base)) {
            return Double.NaN;
        }
        List<Double> ratios = new ArrayList<>();
        for (StreamRound r : bySystem.get(system)) {
            for (StreamRound b : bySystem.get(base)) {
                if (b.round() == r.round()) {
                    ratios.add(figure.applyAsDouble(r) / figure.applyAsDouble(b));
                }
            }
        }
        return Rounds.median(ratios);
    }

    private String ratio(String system, String base, ToDoubleFunction<StreamRound> figure) {
        return system.equals(base) ? "1.00" : fmt(ratioMedian(system, base, figure), "%.2f");
    }

    private static double median(List<StreamRound> rs, ToDoubleFunction<StreamRound> figure) {
        return Rounds.median(rs.stream().map(figure::applyAsDouble).toList());
    }

    private static String spread(List<StreamRound> rs, ToDoubleFunction<StreamRound> figure, String format) {
        String m = fmt(median(rs, figure), format);
        if (rs.size() < 2) {
            return m;
        }
        double min = rs.stream().mapToDouble(figure).min().orElse(Double.NaN);
        double max = rs.stream().mapToDouble(figure).max().orElse(Double.NaN);
        return m + " [" + fmt(min, format) + "-" + fmt(max, format) + "]";
    }

    private static String fmt(double v, String format) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, format, v);
    }
}
