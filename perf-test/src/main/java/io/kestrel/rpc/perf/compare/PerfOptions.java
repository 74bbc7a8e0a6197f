package io.kestrel.rpc.perf.compare;

import io.kestrel.rpc.perf.compare.system.BenchSystems;
import io.kestrel.rpc.perf.compare.system.SystemSettings;
import io.kestrel.rpc.perf.support.CommandLine;
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
              --systems LIST           comma-separated: all, kestrel, rest, observed (kryo and fory
                                       with and without metrics + tracing), dubbo (kestrel-dubbo-hessian2
                                       and stock dubbo-hessian2; not in all), or names from
                                       %s (default all)
              --workloads LIST         comma-separated: bid, echo-50k, exists (default all)
              --quick                  smoke-test sizes (explicit options still win)
              --out DIR                report directory (default perf-results)
              --raw-serialization NAME bytes carried by raw-netty (default kryo; json if not installed)
              --rpc-server-threads N   framework server business threads (default: framework default)
              --call-timeout DURATION  per-call timeout (default 5s)
              --server-jvm-args "ARGS" extra JVM flags for the server JVMs (the fst --add-opens are always added)
              --help
            """.formatted(BenchSystems.ALL);

    private final int threads;
    private final Duration warmup;
    private final Duration measure;
    private final List<String> systems;
    private final List<Workload> workloads;
    private final boolean quick;
    private final Path outputDir;
    private final SystemSettings settings;
    private final List<String> serverJvmArgs;

    private PerfOptions(Builder b) {
        this.quick = b.quick;
        this.threads = b.threads != null ? b.threads : (b.quick ? 2 : 10);
        this.warmup = b.warmup != null ? b.warmup : (b.quick ? Duration.ofMillis(300) : Duration.ofSeconds(5));
        this.measure = b.measure != null ? b.measure : (b.quick ? Duration.ofSeconds(1) : Duration.ofSeconds(10));
        this.systems = List.copyOf(b.systems);
        this.workloads = List.copyOf(b.workloads);
        this.outputDir = b.outputDir;
        this.settings = new SystemSettings(b.rawSerialization, b.rpcServerThreads, b.callTimeout);
        this.serverJvmArgs = List.copyOf(b.serverJvmArgs);
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
        for (CommandLine.Option o : CommandLine.parse(args, Set.of("--quick"))) {
            switch (o.name()) {
                case "--quick" -> b.quick(true);
                case "--threads" -> b.threads(o.intValue());
                case "--warmup" -> b.warmup(o.duration());
                case "--measure" -> b.measure(o.duration());
                case "--systems" -> b.systems(BenchSystems.expand(o.value()));
                case "--workloads" -> b.workloads(parseWorkloads(o.value()));
                case "--out" -> b.outputDir(o.path());
                case "--raw-serialization" -> b.rawSerialization(o.value());
                case "--rpc-server-threads" -> b.rpcServerThreads(o.intValue());
                case "--call-timeout" -> b.callTimeout(o.duration());
                case "--server-jvm-args" -> b.serverJvmArgs(List.of(o.value().trim().split("\\s+")));
                default -> throw o.unknown();
            }
        }
        return b.build();
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

    public Path outputDir() {
        return outputDir;
    }

    public SystemSettings settings() {
        return settings;
    }

    public List<String> serverJvmArgs() {
        return serverJvmArgs;
    }

    @Override
    public String toString() {
        return "threads=" + threads + ", warm-up=" + warmup.toMillis() + "ms, measure=" + measure.toMillis()
                + "ms, systems=" + systems + ", workloads=" + workloads.stream().map(Workload::label).toList()
                + (quick ? ", quick" : "") + ", raw-serialization=" + settings.rawSerialization()
                + ", rpc-server-threads=" + (settings.rpcServerThreads() < 0 ? "default" : settings.rpcServerThreads())
                + ", call-timeout=" + settings.callTimeout().toMillis() + "ms";
    }

    /** Builder with the defaults described on {@link PerfOptions}. */
    public static final class Builder {
        private Integer threads;
        private Duration warmup;
        private Duration measure;
        private List<String> systems = BenchSystems.ALL;
        private List<Workload> workloads = List.of(Workload.values());
        private boolean quick;
        private Path outputDir = Path.of("perf-results");
        private String rawSerialization = SystemSettings.DEFAULTS.rawSerialization();
        private int rpcServerThreads = -1;
        private Duration callTimeout = SystemSettings.DEFAULTS.callTimeout();
        private List<String> serverJvmArgs = List.of();

        private Builder() {
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

        public Builder serverJvmArgs(List<String> args) {
            this.serverJvmArgs = args.stream().filter(s -> !s.isBlank()).toList();
            return this;
        }

        public PerfOptions build() {
            return new PerfOptions(this);
        }
    }
}
