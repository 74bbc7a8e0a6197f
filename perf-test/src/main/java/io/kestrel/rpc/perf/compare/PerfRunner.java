package io.kestrel.rpc.perf.compare;

import io.kestrel.rpc.perf.compare.system.BenchClient;
import io.kestrel.rpc.perf.compare.system.BenchSystem;
import io.kestrel.rpc.perf.compare.system.BenchSystems;
import io.kestrel.rpc.perf.compare.system.RawRpcSystem;
import io.kestrel.rpc.perf.report.AllocationBreakdown;
import io.kestrel.rpc.perf.report.PerfReport;
import io.kestrel.rpc.perf.report.ReportWriter;
import io.kestrel.rpc.perf.report.ResultsCsv;
import io.kestrel.rpc.perf.report.Rounds;
import io.kestrel.rpc.perf.report.RunResult;
import io.kestrel.rpc.perf.report.SerializedSizes;
import io.kestrel.rpc.perf.report.Units;
import io.kestrel.rpc.perf.server.ClasspathSnapshot;
import io.kestrel.rpc.perf.server.ServerLaunch;
import io.kestrel.rpc.perf.server.ServerProcess;
import io.kestrel.rpc.perf.support.Workload;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs the matrix: for each system, starts its server JVM, runs every workload against it from this
 * JVM (synchronous threads, then each pipelined {@code --inflight} value for the systems with
 * asynchronous calls), stops the server; then computes ratios to raw Netty and writes the report. A system that
 * cannot start is reported as FAILED (or SKIPPED if it is not installed) and the run goes on.
 *
 * <p>With {@code --rounds N} the matrix runs N times, the systems in alternating order ({@link #roundOrder}),
 * and {@link Rounds} combines the rounds into the report's rows.
 */
public final class PerfRunner {
    /** Warm-up multiplier for the first framework system measured in this JVM; see {@code runSystem}. */
    private static final int FIRST_FRAMEWORK_WARMUP_FACTOR = 4;
    /**
     * Client code families ("kestrel-", "raw-rpc-") whose first system has had its longer warm-up; kept
     * across rounds, so that warm-up happens in round 1 only (this JVM's client code stays compiled).
     */
    private final java.util.Set<String> warmClientFamilies = new java.util.HashSet<>();
    private static final double SERVER_START_SECONDS = 3;

    private final PerfOptions options;
    private final PrintStream console;
    private final Progress progress;
    private ClasspathSnapshot classpath;

    private PerfRunner(PerfOptions options, PrintStream console) {
        this.options = options;
        this.console = console;
        this.progress = new Progress(console, System.console() != null && console == System.out);
    }

    /**
     * Runs the whole matrix and writes the report into {@link PerfOptions#outputDir()}.
     *
     * @return the results and the files written
     */
    public static PerfReport run(PerfOptions options, PrintStream console) throws IOException, InterruptedException {
        return new PerfRunner(options, console).run();
    }

    private PerfReport run() throws IOException, InterruptedException {
        Files.createDirectories(options.outputDir());
        long started = System.nanoTime();
        console.println("Kestrel RPC perf-test: " + options);
        console.println();
        SerializedSizes sizes = SerializedSizes.measure();
        console.println("Serialized sizes in bytes (\"!\" = did not read back equal):");
        console.println(ReportWriter.sizesText(sizes));
        AllocationBreakdown breakdown = AllocationBreakdown.measure(options.quick());
        console.println("Allocation per operation of the bid workload's steps, in bytes (this JVM, one thread):");
        console.println(ReportWriter.breakdownText(breakdown));

        long asyncSystems = options.systems().stream().filter(BenchSystems::hasAsync).count();
        int perRound = (int) (options.systems().size() * options.workloads().size()
                + asyncSystems * options.workloads().size() * options.inflight().size());
        int total = perRound * options.rounds();
        double perConfig = (options.warmup().toMillis() + options.measure().toMillis()) / 1000.0 + 0.2;
        double estimate = options.rounds() * (perRound * perConfig + options.systems().size() * SERVER_START_SECONDS);
        console.printf(Locale.ROOT, "Running %d configurations%s, about %s%n%n", total,
                options.rounds() == 1 ? "" : " (" + options.rounds() + " rounds of " + perRound + ")",
                Units.clock(estimate));
        progress.start(total, perConfig, SERVER_START_SECONDS);

        List<List<RunResult>> rounds = new ArrayList<>();
        try (ClasspathSnapshot snapshot = ClasspathSnapshot.ofCurrentJvm()) {
            classpath = snapshot;
            for (int round = 1; round <= options.rounds(); round++) {
                List<String> order = roundOrder(options.systems(), round);
                if (options.rounds() > 1) {
                    progress.roundStarting(round, options.rounds(), order);
                }
                rounds.add(runRound(round, order));
            }
        }
        Rounds combined = Rounds.combine(rounds);
        double seconds = (System.nanoTime() - started) / 1e9;
        PerfReport report = ReportWriter.write(options, sizes, breakdown, combined, seconds, console);
        console.println();
        console.println(ReportWriter.resultsText(combined));
        console.printf(Locale.ROOT, "Finished in %s. Report: %s, %s%s, %s%n", Units.clock(seconds),
                report.markdown(), report.csv(),
                combined.count() == 1 ? "" : ", " + options.outputDir().resolve(ReportWriter.ROUNDS_CSV),
                report.chart() != null ? report.chart() : "(no chart: see report)");
        return report;
    }

    /**
     * The systems in the order of round {@code round} (from 1): as given in odd rounds, reversed in even
     * ones, so that a drift of the machine's speed over the run hits early and late systems alike.
     */
    static List<String> roundOrder(List<String> systems, int round) {
        if (round % 2 == 1) {
            return systems;
        }
        List<String> reversed = new ArrayList<>(systems);
        Collections.reverse(reversed);
        return reversed;
    }

    /** Runs every system once; the results in run order, each with its ratio to raw Netty in this round. */
    private List<RunResult> runRound(int round, List<String> order) throws InterruptedException {
        List<RunResult> results = new ArrayList<>();
        Map<Workload, Double> rawTps = new HashMap<>();
        for (String name : order) {
            runSystem(name, round, results, rawTps);
        }
        List<RunResult> withRatios = new ArrayList<>();
        for (RunResult r : results) {
            // a pipelined run is read against its own synchronous run and its minimal RPC, not the raw echo
            withRatios.add(r.withRatioToRaw(r.pipelined() ? Double.NaN : rawTps.getOrDefault(r.workload(), Double.NaN)));
        }
        return withRatios;
    }

    private void runSystem(String name, int round, List<RunResult> results, Map<Workload, Double> rawTps)
            throws InterruptedException {
        if (options.freshClient()) {
            runSystemInChild(name, round, results, rawTps);
            return;
        }
        BenchSystem system = BenchSystems.create(name, options.settings());
        String unavailable = system.unavailableReason();
        if (unavailable != null) {
            notRunAtAll(name, RunResult.Status.SKIPPED, unavailable, results);
            progress.systemSkipped();
            return;
        }
        ServerLaunch launch = new ServerLaunch(name, options.settings(), maxServerSeconds());
        // one log per round, so that a later round does not overwrite the log of a failure
        String suffix = options.rounds() == 1 ? "" : "-round" + round;
        Path log = options.outputDir().resolve("server-" + name + suffix + ".log");
        progress.serverStarting(name);
        ServerProcess server;
        try {
            Files.deleteIfExists(log);
            List<String> flags = new ArrayList<>(options.serverJvmArgs());
            flags.addAll(BenchSystems.serverFlags(name));
            server = ServerProcess.start(launch, classpath, flags, log);
        } catch (IOException e) {
            notRunAtAll(name, RunResult.Status.FAILED, "server did not start: " + e.getMessage(), results);
            return;
        }
        try (server) {
            BenchClient client;
            try {
                client = system.openClient("127.0.0.1", server.port());
            } catch (Exception e) {
                notRunAtAll(name, RunResult.Status.FAILED, "client did not start: " + e, results);
                return;
            }
            try (client) {
                for (Workload w : options.workloads()) {
                    RunResult r;
                    progress.configStarting(name, w, 0);
                    // The framework's client code (proxies, transport) is shared by every kestrel-*
                    // system in this JVM: the first one measured would also pay for its JIT
                    // compilation (measured: whichever serialization ran first lost about half its
                    // TPS). It gets a longer warm-up, so the order of systems does not decide the ranking.
                    // The same holds for the minimal RPCs (raw-rpc-*), which share their client code too:
                    // the first of them runs before any framework system and would pay for Netty's JIT.
                    Duration warmup = options.warmup();
                    String family = name.startsWith("kestrel-") ? "kestrel-"
                            : name.startsWith(RawRpcSystem.PREFIX) ? RawRpcSystem.PREFIX : null;
                    if (family != null && warmClientFamilies.add(family)) {
                        warmup = warmup.multipliedBy(FIRST_FRAMEWORK_WARMUP_FACTOR);
                    }
                    try {
                        r = LoadGenerator.run(name, w, client, system.argumentBytes(w), options.threads(),
                                warmup, options.measure(), options.settings().callTimeout(),
                                LoadGenerator.ServerProbe.of(server), progress::phase);
                    } catch (InterruptedException e) {
                        throw e;
                    } catch (Exception e) {
                        r = RunResult.notRun(name, w, RunResult.Status.FAILED, String.valueOf(e), options.threads());
                    }
                    if (name.equals("raw-netty") && r.status() == RunResult.Status.OK) {
                        rawTps.put(w, r.tps());
                    }
                    results.add(progress.done(r, rawTps.getOrDefault(w, Double.NaN)));
                    if (BenchSystems.hasAsync(name)) {
                        runPipelined(name, w, system, client, server, r.status() == RunResult.Status.OK ? r.tps()
                                : Double.NaN, results);
                    }
                }
            }
        }
    }

    /**
     * {@code --fresh-client}: runs every workload of {@code name} in a child runner JVM of this JDK that
     * starts its own server JVM and measures that system alone, then takes its results back from its CSV.
     * The child is the first system of its JVM, so it gets the longer warm-up a first system gets.
     */
    private void runSystemInChild(String name, int round, List<RunResult> results, Map<Workload, Double> rawTps)
            throws InterruptedException {
        Path dir = options.outputDir().resolve("fresh-client")
                .resolve(options.rounds() == 1 ? name : "round" + round + "-" + name);
        List<String> args = new ArrayList<>(options.childArgs());
        args.add("--systems");
        args.add(name);
        long timeoutSeconds = maxServerSeconds() * FIRST_FRAMEWORK_WARMUP_FACTOR + 120;
        int exit;
        List<RunResult> childResults;
        try {
            Path csv = dir.resolve("perf-results.csv");
            Files.deleteIfExists(csv); // left by an earlier run into the same directory
            exit = JdkRunner.runChild(ServerProcess.JAVA, name, classpath, args, dir, timeoutSeconds, console);
            if (!Files.isRegularFile(csv)) {
                notRunAtAll(name, RunResult.Status.FAILED, "its client JVM ended with code " + exit
                        + " and wrote no results; see its output above and " + dir, results);
                return;
            }
            childResults = ResultsCsv.read(csv);
        } catch (IOException e) {
            notRunAtAll(name, RunResult.Status.FAILED, "its client JVM failed: " + e.getMessage(), results);
            return;
        }
        Map<Workload, Double> syncTps = new HashMap<>();
        for (RunResult r : childResults) {
            if (!r.pipelined() && r.status() == RunResult.Status.OK) {
                syncTps.put(r.workload(), r.tps());
                if (name.equals("raw-netty")) {
                    rawTps.put(r.workload(), r.tps());
                }
            }
        }
        for (RunResult r : childResults) {
            double reference = r.pipelined() ? syncTps.getOrDefault(r.workload(), Double.NaN)
                    : rawTps.getOrDefault(r.workload(), Double.NaN);
            results.add(progress.done(r, reference));
        }
    }

    /** The pipelined runs of one system and workload, one per {@link PerfOptions#inflight()} value. */
    private void runPipelined(String name, Workload w, BenchSystem system, BenchClient client, ServerProcess server,
            double syncTps, List<RunResult> results) throws InterruptedException {
        for (int n : options.inflight()) {
            progress.configStarting(name, w, n);
            RunResult r;
            try {
                r = PipelinedLoad.run(name, w, client, system.argumentBytes(w), options.asyncCallers(), n,
                        options.warmup(), options.measure(), options.settings().callTimeout(), LoadGenerator.ServerProbe.of(server),
                        progress::phase);
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                r = RunResult.notRun(name, w, RunResult.Status.FAILED, String.valueOf(e), options.asyncCallers(), n);
            }
            results.add(progress.done(r, syncTps));
        }
    }

    /** Records every workload of {@code system} as not run, with the reason. */
    private void notRunAtAll(String system, RunResult.Status status, String note, List<RunResult> results) {
        for (Workload w : options.workloads()) {
            results.add(progress.done(RunResult.notRun(system, w, status, note, options.threads()), Double.NaN));
            if (BenchSystems.hasAsync(system)) {
                for (int n : options.inflight()) {
                    results.add(progress.done(RunResult.notRun(system, w, status, note, options.asyncCallers(), n),
                            Double.NaN));
                }
            }
        }
    }

    /** The server JVM's watchdog limit: generous, but bounded even if this JVM hangs. */
    private long maxServerSeconds() {
        long perSystem = options.workloads().size() * (1 + options.inflight().size())
                * (options.warmup().toSeconds() + options.measure().toSeconds() + options.settings().callTimeout().toSeconds() + 30);
        return Math.max(300, perSystem * 3);
    }
}
