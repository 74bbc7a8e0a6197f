package io.kestrel.rpc.perf.streams;

import io.kestrel.rpc.perf.support.CommandLine;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Options of {@code perf-test/run.sh streams}, parsed from the command line ({@link #parse}).
 *
 * @param systems the systems, in the order of the first round (later rounds alternate it)
 * @param rounds how many times every system is measured
 * @param streams streams at once in the server-streaming and the ping-pong workloads
 * @param messages messages per server stream
 * @param trips round trips per ping-pong stream
 * @param unaryCalls unary calls timed alone and again beside a server stream (framework systems)
 * @param payload bytes per message
 * @param timeout how long one workload may take before it counts as failed
 * @param outputDir report directory
 * @param serverJvmArgs further flags for every server JVM (e.g. a profiler's)
 */
record StreamOptions(List<String> systems, int rounds, int streams, int messages, int trips, int unaryCalls,
        int payload, Duration timeout, Path outputDir, List<String> serverJvmArgs) {
    /** Each measured pass of a workload is preceded by a warm-up pass of this share of its size. */
    static final int WARMUP_DIVISOR = 4;

    static final String USAGE = """
            Usage: run.sh streams [options]
              --systems LIST        %s (default); also kestrel-<serialization>,
                                    raw-stream-<serialization> for any installed serialization, and
                                    kestrel-<serialization>-direct (callbacks=direct, the echo @NonBlocking)
              --rounds N            every system N times, in alternating order; medians and per-round ratios (default 3)
              --streams N           streams at once in both workloads (default 4)
              --messages N          messages per server stream (default 1000000; fewer leave JIT in the CPU figures)
              --trips N             round trips per ping-pong stream (default 10000)
              --unary-calls N       unary calls timed alone and beside a server stream, framework only (default 20000)
              --payload N           bytes per message, 8..65536 (default 16)
              --timeout DURATION    one workload's limit before it fails (default 120s)
              --out DIR             report directory (default perf-results/streams)
              --server-jvm-args S   flags for every server JVM, space-separated (e.g. a JFR recording)
              --quick               tiny sizes, one round: what the smoke test runs (< 1 min)
              --help
            Before each measured pass, a warm-up pass of a quarter of its size.
            """.formatted(String.join(",", StreamSystems.DEFAULTS));

    /**
     * Parses command-line arguments.
     *
     * @throws IllegalArgumentException naming the offending option, or {@link CommandLine#HELP_REQUESTED}
     */
    static StreamOptions parse(String... args) {
        List<String> systems = StreamSystems.DEFAULTS;
        int rounds = 3;
        int streams = 4;
        int messages = 1_000_000;
        int trips = 10_000;
        int unaryCalls = 20_000;
        int payload = 16;
        Duration timeout = Duration.ofSeconds(120);
        Path out = Path.of("perf-results", "streams");
        List<String> serverJvmArgs = List.of();
        for (CommandLine.Option o : CommandLine.parse(args, Set.of("--quick"))) {
            switch (o.name()) {
                case "--systems" -> systems = names(o.value());
                case "--rounds" -> rounds = o.intValue();
                case "--streams" -> streams = o.intValue();
                case "--messages" -> messages = o.intValue();
                case "--trips" -> trips = o.intValue();
                case "--unary-calls" -> unaryCalls = o.intValue();
                case "--payload" -> payload = o.intValue();
                case "--timeout" -> timeout = o.duration();
                case "--out" -> out = o.path();
                case "--server-jvm-args" -> serverJvmArgs = Arrays.stream(o.value().trim().split("\\s+"))
                        .filter(s -> !s.isEmpty()).toList();
                case "--quick" -> {
                    rounds = 1;
                    streams = 2;
                    messages = 2_000;
                    trips = 200;
                    unaryCalls = 200;
                }
                default -> throw o.unknown();
            }
        }
        within("--rounds", rounds, 1, 100);
        within("--streams", streams, 1, 256);
        within("--messages", messages, 1, Integer.MAX_VALUE - 1);
        within("--trips", trips, 1, Integer.MAX_VALUE - 1);
        within("--unary-calls", unaryCalls, 1, 10_000_000);
        within("--payload", payload, StreamMessages.MIN_PAYLOAD, 65_536);
        if (timeout.toMillis() < 1000) {
            throw new IllegalArgumentException("--timeout must be at least 1s, was " + timeout);
        }
        StreamSystems.parse(systems); // refuses an unknown name now, not after the first system ran
        return new StreamOptions(systems, rounds, streams, messages, trips, unaryCalls, payload, timeout, out,
                serverJvmArgs);
    }

    private static void within(String option, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(option + " must be " + min + ".." + max + ", was " + value);
        }
    }

    private static List<String> names(String text) {
        List<String> names = new ArrayList<>();
        for (String part : text.split(",")) {
            String n = part.trim();
            if (!n.isEmpty() && !names.contains(n)) {
                names.add(n);
            }
        }
        if (names.isEmpty()) {
            throw new IllegalArgumentException("--systems names no system");
        }
        return List.copyOf(names);
    }

    /** A warm-up pass's size for a measured size of {@code n}. */
    static int warmup(int n) {
        return Math.max(1, n / WARMUP_DIVISOR);
    }
}
