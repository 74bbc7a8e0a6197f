package io.kestrel.rpc.perf.soak;

import io.kestrel.rpc.perf.compare.system.BenchSystems;
import io.kestrel.rpc.perf.soak.attack.AttackKind;
import io.kestrel.rpc.perf.support.CommandLine;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Options of a soak run, parsed from the command line ({@link #parse}).
 *
 * @param window the soak window
 * @param threads client threads
 * @param serialization one of {@link BenchSystems#SERIALIZATIONS}, always with DemoOptimizer
 * @param warmup load before the heap is measured
 * @param callTimeout timeout of the ordinary calls
 * @param probeTimeout timeout of the timeout probes; the server delays them three times as long
 * @param outputDir report directory
 * @param attacks attacks run beside the load during the window (empty: none, the provider keeps the
 *     framework's default limits), or the per-port attacks ({@link AttackKind#perPort}; {@link PortSoak})
 * @param protocols the ports the per-port attacks run against, "native" and/or "dubbo"
 * @param after how long the per-port soak's well-behaved client keeps calling after each attack stopped
 */
record SoakOptions(Duration window, int threads, String serialization, Duration warmup, Duration callTimeout,
        Duration probeTimeout, Path outputDir, List<AttackKind> attacks, List<String> protocols, Duration after) {
    static final List<String> PROTOCOLS = List.of("native", "dubbo");

    /** Whether the attacks are the per-port ones ({@link PortSoak}). */
    boolean perPort() {
        return !attacks.isEmpty() && attacks.get(0).perPort;
    }

    static final String USAGE = """
            Usage: run.sh soak [options]
              --minutes N              soak window in minutes, fractions allowed (default 5)
              --threads N              client threads (default 10)
              --serialization NAME     %s (default kryo; always with DemoOptimizer)
              --warmup DURATION        warm-up before the heap is measured, e.g. 10s (default 10s)
              --call-timeout DURATION  timeout of the ordinary calls (default 5s)
              --probe-timeout DURATION timeout of the timeout probes; the server delays them 3x (default 200ms)
              --out DIR                report directory (default perf-results)
              --attacks LIST           hostile clients run beside the load during the window: all, none, or a
                                       comma list of %s (default none); the provider then gets
                                       small limits (AttackPlan) that the attacks meet within seconds; or
                                       ports, or a comma list of %s: the per-port
                                       attacks, one at a time for --minutes each against a fresh provider with
                                       default limits (-Xmx512m -XX:MaxDirectMemorySize=512m), on each protocol
                                       of --protocols, beside a client calling once a second (PortSoak)
              --protocols LIST         ports of the per-port attacks: native,dubbo (default both)
              --after DURATION         per-port attacks: the client keeps calling this long after each (default 20s)
              --help
            """.formatted(BenchSystems.SERIALIZATIONS, AttackKind.labels(), AttackKind.labels(true));

    /**
     * Parses command-line arguments.
     *
     * @throws IllegalArgumentException naming the offending option, or {@link CommandLine#HELP_REQUESTED}
     */
    static SoakOptions parse(String... args) {
        double minutes = 5;
        int threads = 10;
        String serialization = "kryo";
        Duration warmup = Duration.ofSeconds(10);
        Duration callTimeout = Duration.ofSeconds(5);
        Duration probeTimeout = Duration.ofMillis(200);
        Path out = Path.of("perf-results");
        List<AttackKind> attacks = List.of();
        List<String> protocols = PROTOCOLS;
        Duration after = Duration.ofSeconds(20);
        for (CommandLine.Option o : CommandLine.parse(args, Set.of())) {
            switch (o.name()) {
                case "--minutes" -> minutes = o.doubleValue();
                case "--threads" -> threads = o.intValue();
                case "--serialization" -> serialization = o.value().trim().toLowerCase(Locale.ROOT);
                case "--warmup" -> warmup = o.duration();
                case "--call-timeout" -> callTimeout = o.duration();
                case "--probe-timeout" -> probeTimeout = o.duration();
                case "--out" -> out = o.path();
                case "--attacks" -> attacks = AttackKind.parseList(o.value());
                case "--protocols" -> protocols = protocols(o.value());
                case "--after" -> after = o.duration();
                default -> throw o.unknown();
            }
        }
        if (!(minutes >= 0.05 && minutes <= 24 * 60)) {
            throw new IllegalArgumentException("--minutes must be 0.05..1440, was " + minutes);
        }
        if (threads < 1 || threads > 200) {
            throw new IllegalArgumentException("--threads must be 1..200, was " + threads);
        }
        if (!BenchSystems.SERIALIZATIONS.contains(serialization)) {
            throw new IllegalArgumentException("--serialization must be one of " + BenchSystems.SERIALIZATIONS
                    + ", was '" + serialization + "'");
        }
        if (warmup.isNegative() || warmup.compareTo(Duration.ofMinutes(10)) > 0) {
            throw new IllegalArgumentException("--warmup must be 0..10 minutes, was " + warmup);
        }
        if (callTimeout.toMillis() < 100 || probeTimeout.toMillis() < 10
                || probeTimeout.toMillis() * 3 > SoakServiceImpl.MAX_DELAY_MILLIS) {
            throw new IllegalArgumentException("--call-timeout must be >= 100ms and --probe-timeout 10ms..3.3s");
        }
        if (after.toMillis() < 1000 || after.compareTo(Duration.ofMinutes(10)) > 0) {
            throw new IllegalArgumentException("--after must be 1s..10 minutes, was " + after);
        }
        return new SoakOptions(Duration.ofMillis(Math.round(minutes * 60_000)), threads, serialization, warmup,
                callTimeout, probeTimeout, out, attacks, protocols, after);
    }

    private static List<String> protocols(String text) {
        List<String> chosen = new java.util.ArrayList<>();
        for (String part : text.split(",")) {
            String p = part.trim().toLowerCase(Locale.ROOT);
            if (!PROTOCOLS.contains(p)) {
                throw new IllegalArgumentException("--protocols: unknown protocol '" + p + "'; use " + PROTOCOLS);
            }
            if (!chosen.contains(p)) {
                chosen.add(p);
            }
        }
        return List.copyOf(chosen);
    }
}
