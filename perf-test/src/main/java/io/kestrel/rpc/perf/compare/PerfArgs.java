package io.kestrel.rpc.perf.compare;

import io.kestrel.rpc.perf.compare.system.BenchSystems;
import io.kestrel.rpc.perf.support.CommandLine;
import io.kestrel.rpc.perf.support.ObservedRpc;
import io.kestrel.rpc.perf.support.Workload;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The command line of {@link PerfMain}: its usage text and the parsing of it into {@link PerfOptions}. */
final class PerfArgs {
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

    private PerfArgs() {
    }

    /**
     * Parses command-line arguments.
     *
     * @throws IllegalArgumentException naming the offending option, or {@link CommandLine#HELP_REQUESTED}
     */
    static PerfOptions parse(String... args) {
        PerfOptions.Builder b = PerfOptions.builder();
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
        b.childArgs(argsWithout(args, PER_CHILD));
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
}
