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
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Options of one benchmark run, parsed from the command line ({@link #parse}, {@link PerfArgs}). Immutable.
 *
 * <p>Defaults (10 threads, 5 s warm-up, 10 s measured, all 13 systems x 3 workloads) finish in about
 * 11 minutes on 2 cores; {@code --quick} (2 threads, 0.3 s warm-up, 1 s measured) in under a minute.
 */
public final class PerfOptions {

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
     * Parses command-line arguments ({@link PerfArgs}).
     *
     * @throws IllegalArgumentException naming the offending option, or {@link CommandLine#HELP_REQUESTED}
     */
    public static PerfOptions parse(String... args) {
        return PerfArgs.parse(args);
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

        /** The options a {@code --fresh-client} child runner is started with ({@link PerfArgs#parse}). */
        Builder childArgs(List<String> args) {
            this.childArgs = List.copyOf(args);
            return this;
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
