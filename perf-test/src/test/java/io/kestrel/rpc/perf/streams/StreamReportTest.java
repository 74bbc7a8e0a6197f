package io.kestrel.rpc.perf.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class StreamReportTest {
    /**
     * A round of one system: {@code rate} messages/s, {@code wire} bytes per message, CPU ns per message on each
     * side of a feed, p99s in microseconds.
     */
    private static StreamRound row(String system, int round, double rate, double wire, long cpu, double alone,
            double beside) {
        long messages = 1_000_000;
        return new StreamRound(system, round, 20, messages, Math.round(messages * 1e9 / rate),
                Math.round(wire * messages), cpu * messages, cpu * messages, 1000, 1_000_000_000L, 2000 * 40, -1, -1,
                alone, beside);
    }

    @Test
    void ratiosAreMediansOfPerRoundRatiosAndTargetsGetVerdicts() {
        List<StreamRound> rows = List.of(
                row("raw-stream-kryo", 1, 100, 29, 1000, Double.NaN, Double.NaN),
                row("kestrel-kryo", 1, 90, 36, 2000, 100, 150),
                row("grpc", 1, 40, 21, -1, Double.NaN, Double.NaN),
                row("raw-stream-kryo", 2, 200, 29, 1000, Double.NaN, Double.NaN),
                row("kestrel-kryo", 2, 100, 36, 2000, 100, 300),
                row("grpc", 2, 60, 21, -1, Double.NaN, Double.NaN),
                row("raw-stream-kryo", 3, 100, 29, 1000, Double.NaN, Double.NaN),
                row("kestrel-kryo", 3, 70, 36, 2000, 100, 250),
                row("grpc", 3, 50, 21, -1, Double.NaN, Double.NaN));
        StreamReport report = new StreamReport(StreamOptions.parse("--rounds", "3"), rows);
        // per round x raw: 0.9, 0.5, 0.7 -> 0.7 (not the ratio of the medians, 90 / 100 = 0.9)
        assertEquals(0.7, report.ratioMedian("kestrel-kryo", "raw-stream-kryo", StreamRound::feedRate), 1e-6);
        // per round x grpc: 2.25, 1.67, 1.4 -> 1.67
        assertEquals(100.0 / 60, report.ratioMedian("kestrel-kryo", "grpc", StreamRound::feedRate), 1e-6);
        assertEquals(16, report.feedOverhead("kestrel-kryo"), 1e-6);
        assertEquals(2.5, report.unaryRatio("kestrel-kryo"), 1e-6);
        String md = report.markdown();
        assertTrue(md.contains("| kestrel-kryo | >= 2.0x grpc msgs/s, server streaming | 1.67 | no |"), md);
        assertTrue(md.contains("| kestrel-kryo | >= 0.8x the raw loop's msgs/s, server streaming | 0.70 | no |"), md);
        assertTrue(md.contains("| kestrel-kryo | <= 16 B/msg on the wire beyond the message, server streaming"
                + " | 16.00 | yes |"), md);
        assertTrue(md.contains("| kestrel-kryo | unary p99 beside a stream <= 2.0x alone | 2.50 | no |"), md);
        // by CPU: the raw loop spends half as much per message; grpc's CPU is not known here
        assertTrue(md.contains("| kestrel-kryo | the same by CPU per message (the raw loop's CPU / this one's)"
                + " | 0.50 | no |"), md);
        assertTrue(md.contains("| kestrel-kryo | the same by CPU per message (grpc's CPU / this one's;"
                + " load-independent) | - | not measured |"), md);
        // raw x grpc per round: 2.5, 3.33, 2.0 -> 2.5
        assertTrue(md.contains("| raw-stream-kryo | 100 [100-200] | 2.50 | - | - | - | 20 |"), md);
    }
}
