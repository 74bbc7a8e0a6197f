package io.kestrel.rpc.perf.compare;

import io.kestrel.rpc.perf.compare.system.BenchSystems;
import io.kestrel.rpc.perf.compare.system.SystemSettings;
import io.kestrel.rpc.perf.server.LimitsSpec;
import io.kestrel.rpc.perf.support.CommandLine;
import io.kestrel.rpc.perf.support.ObservedRpc;
import io.kestrel.rpc.perf.support.Workload;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * Options of one benchmark run, parsed from the command line ({@link #parse}). Immutable.
 *
 * <p>Defaults (10 threads, 5 s warm-up, 10 s measured, all 13 systems x 3 workloads) finish in about
 * 11 minutes on 2 cores; {@code --quick} (2 threads, 0.3 s warm-up, 1 s measured) in under a minute.
 */
public final class PerfOptions {
    static final String USAGE = """
            Usage: PerfMain [options]
              --threads N              client threads calling synchronously (default 10; quick 2)
              --warmup DURATION        warm-up per configuration, e.g. 5s, 500ms (default 5s; quick 300ms)
              --measure DURATION       measured window per configuration (default 10s; quick 1s)
              --systems LIST           comma-separated: all, kestrel, raw-rpc (the minimal RPC per
                                       serialization), rest, observed (kryo and fory without, and
                                       with metrics + tracing: -observed through Micrometer
                                       Observation, -otel through OpenTelemetry), dubbo (kestrel-dubbo-hessian2
                                       and stock dubbo-hessian2; not in all), or names from
                                       %s (default all)
              --workloads LIST         comma-separated: bid, echo-50k, exists (default all)
              --inflight LIST          also run the pipelined workload of the kestrel-* and raw-rpc-*
                                       systems with these numbers of calls in flight, e.g.
                                       1,16,256,1024 (default none: synchronous runs only)
              --async-callers N        threads that keep the pipelined calls in flight together
                                       (default 1; at most the smallest --inflight)
              --jdks LIST              run the whole matrix once per JDK, client and server JVMs on it,
                                       and write one report with the JDKs side by side: feature
                                       versions found in JAVA_HOME or /usr/lib/jvm/* (e.g. 17,25) or
                                       JDK directories (default: only the JDK running this)
              --rounds N               measure the whole matrix N times, the systems in alternating order
                                       (forward, reverse, ...), and report per configuration the median
                                       TPS, its min-max, and the median of the ratios taken within each
                                       round; every round's rows in perf-results-rounds.csv (default 1)
              --fresh-client           run each system of each round in a client JVM of its own (a child
                                       runner with the same options), so that no system's JIT profile
                                       shapes another's; each child warms up as the first system does
              --quick                  smoke-test sizes (explicit options still win)
              --out DIR                report directory (default perf-results)
              --raw-serialization NAME bytes carried by raw-netty (default kryo; json if not installed)
              --rpc-server-threads N   framework server business threads (default: framework default)
              --call-timeout DURATION  per-call timeout (default 5s)
              --server-limits SPEC     limits of the framework's providers, name=value pairs separated by
                                       commas: calls-per-connection, max-connections, memory-budget,
                                       ... (the <rpc:protocol> attributes); default the framework's
                                       (calls-per-connection: half the business threads, which a
                                       pipelined run with more calls in flight meets)
              --server-jvm-args "ARGS" extra JVM flags for the server JVMs (Netty's and fst's flags are always added)
              --trace-sampling SHARE   share of traces the -observed and -otel systems sample, in (0, 1]
                                       (default 1: every call; Spring Boot's default is 0.1)
              --help
            """.formatted(BenchSystems.ALL);

    /** Options that take no value. */
    private static final Set<String> FLAGS = Set.of("--quick", "--fresh-client");
    /** Options a {@code --fresh-client} child does not inherit. */
    private static final Set<String> PER_CHILD = Set.of("--systems", "--rounds", "--out", "--jdks", "--fresh-client");

    private final int threads;
    private final Duration warmup;
    private final Duration measure;
    private final List<String> systems;
    private final List<Workload> workloads;
    private final boolean quick;
    private final boolean freshClient;
    private final List<String> childArgs;
    private final Path outputDir;
    private final SystemSettings settings;
    private final List<String> serverJvmArgs;
    private final List<Integer> inflight;
    private final int asyncCallers;
    private final List<Jdks.Jdk> jdks;
    private final int rounds;
    private final double traceSampling;

    private PerfOptions(Builder b) {
        this.quick = b.quick;
        this.freshClient = b.freshClient;
        this.childArgs = List.copyOf(b.childArgs);
        this.threads = b.threads != null ? b.threads : (b.quick ? 2 : 10);
        this.warmup = b.warmup != null ? b.warmup : (b.quick ? Duration.ofMillis(300) : Duration.ofSeconds(5));
        this.measure = b.measure != null ? b.measure : (b.quick ? Duration.ofSeconds(1) : Duration.ofSeconds(10));
        this.systems = List.copyOf(b.systems);
        this.workloads = List.copyOf(b.workloads);
        this.outputDir = b.outputDir;
        this.settings = new SystemSettings(b.rawSerialization, b.rpcServerThreads, b.callTimeout, b.serverLimits);
        this.traceSampling = b.traceSampling;
        List<String> jvmArgs = new ArrayList<>(b.serverJvmArgs);
        if (traceSampling < 1) {
            jvmArgs.add("-D" + ObservedRpc.SAMPLING_PROPERTY + "=" + traceSampling);
        }
        this.serverJvmArgs = List.copyOf(jvmArgs);
        this.inflight = List.copyOf(b.inflight);
        this.asyncCallers = b.asyncCallers;
        this.jdks = List.copyOf(b.jdks);
        this.rounds = b.rounds;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Parses command-line arguments.
     *
     * @throws IllegalArgumentException naming the offending option, or {@link CommandLine#HELP_REQUESTED}
     */
    public static PerfOptions parse(String... args) {
        Builder b = builder();
        for (CommandLine.Option o : CommandLine.parse(args, FLAGS)) {
            switch (o.name()) {
                case "--quick" -> b.quick(true);
                case "--fresh-client" -> b.freshClient(true);
                case "--threads" -> b.threads(o.intValue());
                case "--warmup" -> b.warmup(o.duration());
                case "--measure" -> b.measure(o.duration());
                case "--systems" -> b.systems(BenchSystems.expand(o.value()));
                case "--workloads" -> b.workloads(parseWorkloads(o.value()));
                case "--out" -> b.outputDir(o.path());
                case "--raw-serialization" -> b.rawSerialization(o.value());
                case "--rpc-server-threads" -> b.rpcServerThreads(o.intValue());
                case "--call-timeout" -> b.callTimeout(o.duration());
                case "--server-limits" -> b.serverLimits(o.value());
                case "--server-jvm-args" -> b.serverJvmArgs(List.of(o.value().trim().split("\\s+")));
                case "--trace-sampling" -> b.traceSampling(ObservedRpc.parseSampling(o.value()));
                case "--inflight" -> b.inflight(parseInflight(o.value()));
                case "--async-callers" -> b.asyncCallers(o.intValue());
                case "--jdks" -> b.jdks(Jdks.resolve(o.value()));
                case "--rounds" -> b.rounds(o.intValue());
                default -> throw o.unknown();
            }
        }
        b.childArgs = argsWithout(args, PER_CHILD);
        return b.build();
    }

    /** The options in {@code args} but those named in {@code dropped}, each with its value: a child runner's. */
    static List<String> argsWithout(String[] args, Set<String> dropped) {
        List<String> out = new ArrayList<>();
        for (CommandLine.Option o : CommandLine.parse(args, FLAGS)) {
            if (!dropped.contains(o.name())) {
                out.add(o.name());
                if (o.value() != null) {
                    out.add(o.value());
                }
            }
        }
        return out;
    }

    private static List<Integer> parseInflight(String text) {
        Set<Integer> values = new LinkedHashSet<>();
        if (text.trim().equalsIgnoreCase("none")) {
            return List.of();
        }
        for (String part : text.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            int n;
            try {
                n = Integer.parseInt(part.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--inflight takes numbers of calls in flight, e.g. 1,16,256,1024; was '"
                        + text + "'");
            }
            values.add(n);
        }
        return List.copyOf(values);
    }

    private static List<Workload> parseWorkloads(String text) {
        Set<Workload> set = new LinkedHashSet<>();
        for (String part : text.split(",")) {
            if (!part.isBlank()) {
                set.add(part.trim().equalsIgnoreCase("all") ? null : Workload.byLabel(part));
            }
        }
        if (set.remove(null)) {
            return List.of(Workload.values());
        }
        List<Workload> ordered = new ArrayList<>();
        for (Workload w : Workload.values()) {
            if (set.contains(w)) {
                ordered.add(w);
            }
        }
        return ordered;
    }

    public int threads() {
        return threads;
    }

    public Duration warmup() {
        return warmup;
    }

    public Duration measure() {
        return measure;
    }

    public List<String> systems() {
        return systems;
    }

    public List<Workload> workloads() {
        return workloads;
    }

    public boolean quick() {
        return quick;
    }

    /** Whether each system of each round runs in a client JVM of its own ({@code --fresh-client}). */
    public boolean freshClient() {
        return freshClient;
    }

    /**
     * The options a {@code --fresh-client} child runner gets: those given on the command line but
     * {@code --systems}, {@code --rounds}, {@code --out}, {@code --jdks} and {@code --fresh-client}
     * (the runner gives each child one system, one round and a directory); empty when built in code.
     */
    public List<String> childArgs() {
        return childArgs;
    }

    public Path outputDir() {
        return outputDir;
    }

    public SystemSettings settings() {
        return settings;
    }

    public List<String> serverJvmArgs() {
        return serverJvmArgs;
    }

    /** Calls in flight of each pipelined run; empty: synchronous runs only. */
    public List<Integer> inflight() {
        return inflight;
    }

    /** Threads that keep the pipelined calls in flight together. */
    public int asyncCallers() {
        return asyncCallers;
    }

    /** The JDKs to run the matrix on, one after the other; empty: only the running JDK, in this JVM. */
    public List<Jdks.Jdk> jdks() {
        return jdks;
    }

    /**
     * Share of traces the observed systems sample ({@code --trace-sampling}; 1: every call). The server
     * JVMs get it through {@link #serverJvmArgs()}; {@link #applyTraceSampling()} sets it in this JVM.
     */
    public double traceSampling() {
        return traceSampling;
    }

    /** Sets {@link #traceSampling()} for the observed systems' consumers made in this JVM. */
    public void applyTraceSampling() {
        if (traceSampling < 1) {
            System.setProperty(ObservedRpc.SAMPLING_PROPERTY, Double.toString(traceSampling));
        } else {
            System.clearProperty(ObservedRpc.SAMPLING_PROPERTY);
        }
    }

    /** How many times the whole matrix is measured ({@code --rounds}); 1: once, as without the option. */
    public int rounds() {
        return rounds;
    }

    @Override
    public String toString() {
        return "threads=" + threads + ", warm-up=" + warmup.toMillis() + "ms, measure=" + measure.toMillis()
                + "ms, systems=" + systems + ", workloads=" + workloads.stream().map(Workload::label).toList()
                + (quick ? ", quick" : "") + (freshClient ? ", fresh-client" : "") + ", raw-serialization=" + settings.rawSerialization()
                + ", rpc-server-threads=" + (settings.rpcServerThreads() < 0 ? "default" : settings.rpcServerThreads())
                + ", call-timeout=" + settings.callTimeout().toMillis() + "ms"
                + (settings.serverLimits().isEmpty() ? "" : ", server-limits=" + settings.serverLimits())
                + (inflight.isEmpty() ? "" : ", inflight=" + inflight + ", async-callers=" + asyncCallers)
                + (jdks.isEmpty() ? "" : ", jdks=" + jdks.stream().map(Jdks.Jdk::label).toList())
                + (rounds == 1 ? "" : ", rounds=" + rounds)
                + (traceSampling < 1 ? ", trace-sampling=" + traceSampling : "");
    }

    /** Builder with the defaults described on {@link PerfOptions}. */
    public static final class Builder {
        private Integer threads;
        private Duration warmup;
        private Duration measure;
        private List<String> systems = BenchSystems.ALL;
        private List<Workload> workloads = List.of(Workload.values());
        private boolean quick;
        private boolean freshClient;
        private List<String> childArgs = List.of();
        private Path outputDir = Path.of("perf-results");
        private String rawSerialization = SystemSettings.DEFAULTS.rawSerialization();
        private int rpcServerThreads = -1;
        private Duration callTimeout = SystemSettings.DEFAULTS.callTimeout();
        private String serverLimits = "";
        private List<String> serverJvmArgs = List.of();
        private List<Integer> inflight = List.of();
        private int asyncCallers = 1;
        private List<Jdks.Jdk> jdks = List.of();
        private int rounds = 1;
        private double traceSampling = 1;

        private Builder() {
        }

        /** Share of traces the observed systems sample, in (0, 1]. */
        public Builder traceSampling(double share) {
            this.traceSampling = ObservedRpc.parseSampling(Double.toString(share));
            return this;
        }

        public Builder threads(int threads) {
            if (threads < 1 || threads > 1000) {
                throw new IllegalArgumentException("--threads must be 1..1000, was " + threads);
            }
            this.threads = threads;
            return this;
        }

        public Builder warmup(Duration warmup) {
            if (warmup.isNegative() || warmup.compareTo(Duration.ofMinutes(10)) > 0) {
                throw new IllegalArgumentException("--warmup must be 0..10 minutes, was " + warmup);
            }
            this.warmup = warmup;
            return this;
        }

        public Builder measure(Duration measure) {
            if (measure.toMillis() < 100 || measure.compareTo(Duration.ofMinutes(10)) > 0) {
                throw new IllegalArgumentException("--measure must be 100ms..10 minutes, was " + measure);
            }
            this.measure = measure;
            return this;
        }

        public Builder systems(List<String> systems) {
            if (systems.isEmpty()) {
                throw new IllegalArgumentException("--systems selects nothing");
            }
            this.systems = systems;
            return this;
        }

        public Builder workloads(List<Workload> workloads) {
            if (workloads.isEmpty()) {
                throw new IllegalArgumentException("--workloads selects nothing");
            }
            this.workloads = workloads;
            return this;
        }

        public Builder freshClient(boolean freshClient) {
            this.freshClient = freshClient;
            return this;
        }

        public Builder quick(boolean quick) {
            this.quick = quick;
            return this;
        }

        public Builder outputDir(Path dir) {
            this.outputDir = Objects.requireNonNull(dir, "outputDir");
            return this;
        }

        public Builder rawSerialization(String name) {
            this.rawSerialization = name.trim().toLowerCase(Locale.ROOT);
            return this;
        }

        public Builder rpcServerThreads(int threads) {
            this.rpcServerThreads = threads;
            return this;
        }

        public Builder callTimeout(Duration timeout) {
            if (timeout.toMillis() < 10) {
                throw new IllegalArgumentException("--call-timeout must be at least 10ms, was " + timeout);
            }
            this.callTimeout = timeout;
            return this;
        }

        /** The framework providers' limits as a {@link LimitsSpec}, e.g. "calls-per-connection=2048". */
        public Builder serverLimits(String spec) {
            LimitsSpec.parse(spec); // refuses an unknown name or a bad value now, not in every server JVM
            this.serverLimits = spec.trim();
            return this;
        }

        public Builder serverJvmArgs(List<String> args) {
            this.serverJvmArgs = args.stream().filter(s -> !s.isBlank()).toList();
            return this;
        }

        /** Calls in flight of each pipelined run, each 1..65536; empty turns the pipelined runs off. */
        public Builder inflight(List<Integer> inflight) {
            for (int n : inflight) {
                if (n < 1 || n > 65_536) {
                    throw new IllegalArgumentException("--inflight values must be 1..65536, was " + n);
                }
            }
            this.inflight = List.copyOf(inflight);
            return this;
        }

        public Builder asyncCallers(int callers) {
            if (callers < 1 || callers > 64) {
                throw new IllegalArgumentException("--async-callers must be 1..64, was " + callers);
            }
            this.asyncCallers = callers;
            return this;
        }

        /** JDKs to run the matrix on ({@link Jdks#resolve}); empty: the running JDK only. */
        public Builder jdks(List<Jdks.Jdk> jdks) {
            this.jdks = List.copyOf(jdks);
            return this;
        }

        /** Times the whole matrix is measured, 1..100 (default 1). */
        public Builder rounds(int rounds) {
            if (rounds < 1 || rounds > 100) {
                throw new IllegalArgumentException("--rounds must be 1..100, was " + rounds);
            }
            this.rounds = rounds;
            return this;
        }

        public PerfOptions build() {
            int smallest = inflight.stream().mapToInt(Integer::intValue).min().orElse(Integer.MAX_VALUE);
            if (asyncCallers > smallest) {
                throw new IllegalArgumentException("--async-callers " + asyncCallers + " is more than the smallest"
                        + " --inflight " + smallest + ": every caller thread keeps at least one call in flight");
            }
            return new PerfOptions(this);
        }
    }
}
