package io.kestrel.rpc.perf.soak;

import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.perf.compare.system.SystemSettings;
import io.kestrel.rpc.perf.server.ClasspathSnapshot;
import io.kestrel.rpc.perf.server.ServerLaunch;
import io.kestrel.rpc.perf.server.ServerProcess;
import io.kestrel.rpc.perf.soak.attack.AttackPlan;
import io.kestrel.rpc.perf.soak.attack.AttackResult;
import io.kestrel.rpc.perf.soak.attack.AttackTarget;
import io.kestrel.rpc.perf.soak.attack.Attacks;
import io.kestrel.rpc.perf.support.BenchmarkService;
import io.kestrel.rpc.perf.support.CommandLine;
import io.kestrel.rpc.perf.support.DirectRpc;
import io.kestrel.rpc.perf.support.HeapProbe;
import io.kestrel.rpc.perf.support.SerializationVariant;
import io.kestrel.rpc.perf.support.Sleep;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * The soak mode (opt-in, never run by CI): {@code perf-test/run.sh soak [--minutes N] [--threads N]
 * [--serialization NAME]}. Starts the provider in its own JVM ({@link ServerProcess} running
 * {@link io.kestrel.rpc.perf.server.PerfServerMain} with system {@code soak-<serialization>}, i.e. {@link SoakServer}), refers to
 * it from an {@link RpcRuntime} in this JVM by direct url, and runs the mixed load of
 * {@link SoakLoad}:
 *
 * <ol>
 *   <li>warm-up (default 10 s) of the same mix, then a pause until nothing is pending on either side;
 *   <li>heap "before": used heap after {@code System.gc()} ({@link HeapProbe}) here, then in the
 *       provider (HEAP command);
 *   <li>the soak window (default 5 minutes), a progress line per minute;
 *   <li>stop, wait (at most 15 s) until the consumer's pending calls and the provider's in-flight
 *       calls are 0, heap "after" measured as before, pending and in-flight read once more.
 * </ol>
 *
 * <p>With {@code --attacks} the provider JVM gets the small limits of {@link AttackPlan}, and the chosen
 * attacks ({@link Attacks}) run on their own threads during the window, beside the load; each minute
 * also reports the provider's budgeted memory (largest sampled value and now) and refused connections,
 * and the attacks' counts. After the window the attacks stop and the provider must give its memory
 * back (budgeted memory in use 0, waited for at most 15 s). The verdict then also requires every
 * attack to have met the limit it aims at.
 *
 * Writes {@code soak-report.md} (and {@code server-soak.log}) to the output directory. Exits 0 only if
 * calls completed, no error occurred (expected timeouts of the timeout probes are not errors), and
 * pending and in-flight are 0 at the end; 1 otherwise; 2 on bad options.
 */
public final class SoakMain {
    static final Duration DRAIN_LIMIT = Duration.ofSeconds(15);

    private SoakMain() {
    }

    public static void main(String[] args) throws Exception {
        SoakOptions options = CommandLine.parseOrExit(args, SoakOptions::parse, SoakOptions.USAGE);
        System.exit(run(options, System.out));
    }

    /** Runs the soak and writes the report; returns the exit code (0 passed, 1 failed). */
    static int run(SoakOptions o, PrintStream console) throws Exception {
        if (o.perPort()) {
            return PortSoak.run(o, console);
        }
        Files.createDirectories(o.outputDir());
        String system = SoakServer.PREFIX + o.serialization();
        Path log = o.outputDir().resolve("server-soak.log");
        Files.deleteIfExists(log);
        Instant startedAt = Instant.now();
        boolean attacking = !o.attacks().isEmpty();
        console.printf(Locale.ROOT, "Soak: %s, %d threads, %s with DemoOptimizer, warm-up %d s, call timeout %d ms,"
                + " probe timeout %d ms; provider in a separate JVM (log %s)%n", SoakReport.minutes(o.window()),
                o.threads(), o.serialization(), o.warmup().toSeconds(), o.callTimeout().toMillis(),
                o.probeTimeout().toMillis(), log);
        String limits = attacking ? AttackPlan.limitsSpec() : "";
        if (attacking) {
            console.printf("Attacks during the window: %s; provider limits %s%n",
                    o.attacks().stream().map(k -> k.label).toList(), limits);
        }

        long maxServerSeconds = o.window().toSeconds() + o.warmup().toSeconds() + 600;
        ServerLaunch launch = new ServerLaunch(system, SystemSettings.DEFAULTS.withCallTimeout(o.callTimeout()),
                maxServerSeconds, limits);

        try (ClasspathSnapshot classpath = ClasspathSnapshot.ofCurrentJvm();
                ServerProcess server = ServerProcess.start(launch, classpath, List.of(), log)) {
            RpcRuntime runtime = RpcRuntime.builder().build();
            try {
                String url = "127.0.0.1:" + server.port();
                SerializationVariant variant = SerializationVariant.of(o.serialization());
                BenchmarkService bench = runtime.refer(DirectRpc.reference(BenchmarkService.class, url, variant,
                        o.callTimeout()));
                SoakService async = runtime.refer(DirectRpc.reference(SoakService.class, url, variant,
                        o.callTimeout()));
                SoakService probes = runtime.refer(DirectRpc.reference(SoakService.class, url, variant,
                        o.probeTimeout()));
                console.printf("Provider ready at %s%n", url);

                SoakLoad warm = new SoakLoad(bench, async, probes, o.callTimeout(), o.probeTimeout());
                warm.start(o.threads(), o.warmup());
                Sleep.until(System.nanoTime() + o.warmup().toNanos(), () -> { });
                warm.stop();
                console.printf(Locale.ROOT, "Warm-up: %,d calls, %d errors%n", warm.done(), warm.errorCount());
                SoakReport.Quiet beforeQuiet = awaitQuiet(runtime, server);
                long clientBefore = HeapProbe.usedAfterGc();
                ServerProcess.Heap serverBefore = server.heap();
                console.printf(Locale.ROOT, "Heap before: client %s, server %s (used after System.gc())%n",
                        SoakReport.mb(clientBefore), SoakReport.mb(serverBefore.usedBytes()));

                Attacks attacks = attacking ? Attacks.prepare(o.attacks(), AttackTarget.of(server.port(),
                        o.serialization())) : null;
                ServerProcess.Limits limitsBefore = server.limits(); // also restarts the provider's memory maximum
                SoakLoad soak = new SoakLoad(bench, async, probes, o.callTimeout(), o.probeTimeout());
                List<SoakReport.Interval> intervals = new ArrayList<>();
                Histogram latency = new Histogram(3);
                long memoryMax = 0;
                long t0 = System.nanoTime();
                if (attacks != null) {
                    attacks.start();
                }
                soak.start(o.threads(), o.window());
                long end = t0 + o.window().toNanos();
                long lastCalls = 0;
                long lastErrors = 0;
                long lastAt = t0;
                int totalIntervals = (int) Math.ceil(o.window().toMillis() / 60_000.0);
                for (int i = 1; i <= totalIntervals; i++) {
                    long target = Math.min(end, t0 + TimeUnit.MINUTES.toNanos(i));
                    Sleep.until(target, () -> { });
                    long now = System.nanoTime();
                    long calls = soak.done();
                    long errors = soak.errorCount();
                    Histogram minute = soak.intervalLatency();
                    latency.add(minute);
                    ServerProcess.Limits lim = server.limits();
                    memoryMax = Math.max(memoryMax, lim.maxMemoryInUse());
                    SoakReport.Interval iv = new SoakReport.Interval(i, (now - lastAt) / 1e9, calls - lastCalls,
                            errors - lastErrors, pending(runtime), server.inFlight(), SoakReport.Latency.of(minute),
                            lim.maxMemoryInUse(), lim.memoryInUse(),
                            lim.refusedConnections() - limitsBefore.refusedConnections(), lim.connections());
                    intervals.add(iv);
                    console.printf(Locale.ROOT, "  minute %d/%d: %,d calls in %.1f s, %,.0f TPS, %d errors, "
                            + "consumer pending %d, provider in-flight %d (load running); latency %s%n", i,
                            totalIntervals, iv.calls(), iv.seconds(), iv.tps(), iv.errors(), iv.pending(),
                            iv.inFlight(), iv.latency());
                    if (attacks != null) {
                        console.printf(Locale.ROOT, "    provider: budgeted memory max %s, now %s (budget %s);"
                                + " %,d connections refused so far; %d connections open%n",
                                SoakReport.mb(iv.memoryMax()), SoakReport.mb(iv.memoryNow()), SoakReport.mb(lim.budget()),
                                iv.refused(), iv.connections());
                        console.printf("    attacks: %s%n", SoakReport.attackSummary(attacks.results()));
                    }
                    lastCalls = calls;
                    lastErrors = errors;
                    lastAt = now;
                }
                soak.stop();
                double seconds = (System.nanoTime() - t0) / 1e9;
                latency.add(soak.intervalLatency());
                SoakReport.Attacked attacked = null;
                if (attacks != null) {
                    attacks.stop();
                    List<AttackResult> results = attacks.results();
                    ServerProcess.Limits lim = awaitProviderIdle(runtime, server);
                    memoryMax = Math.max(memoryMax, lim.maxMemoryInUse());
                    attacked = new SoakReport.Attacked(results, limits, lim.budget(), memoryMax, lim.memoryInUse(),
                            lim.refusedConnections() - limitsBefore.refusedConnections(), lim.connections());
                }

                SoakReport.Quiet afterQuiet = awaitQuiet(runtime, server);
                long clientAfter = HeapProbe.usedAfterGc();
                ServerProcess.Heap serverAfter = server.heap();
                int pendingEnd = pending(runtime);
                int inFlightEnd = serverAfter.inFlight();

                long errors = warm.errorCount() + soak.errorCount();
                boolean passed = errors == 0 && pendingEnd == 0 && inFlightEnd == 0 && soak.done() > 0
                        && (attacked == null || attacked.passed());
                String report = SoakReport.markdown(o, startedAt, seconds, warm, soak, intervals, beforeQuiet,
                        afterQuiet, clientBefore, clientAfter, serverBefore.usedBytes(), serverAfter.usedBytes(),
                        pendingEnd, inFlightEnd, passed, SoakReport.Latency.of(latency), attacked);
                Path file = o.outputDir().resolve("soak-report.md");
                Files.writeString(file, report, StandardCharsets.UTF_8);
                console.println();
                console.print(report);
                console.printf("Report: %s%n", file);
                return passed ? 0 : 1;
            } finally {
                runtime.close();
            }
        }
    }

    /** Calls pending on all of the consumer's connections. */
    private static int pending(RpcRuntime runtime) {
        return runtime.inspect().snapshot().client().pendingCalls();
    }

    /**
     * After the attacks stopped: waits (bounded) until the provider holds no budgeted memory and has
     * no more connections open than the consumer, and returns its last figures (their maximum: since
     * the previous LIMITS).
     */
    private static ServerProcess.Limits awaitProviderIdle(RpcRuntime runtime, ServerProcess server)
            throws Exception {
        long deadline = System.nanoTime() + DRAIN_LIMIT.toNanos();
        long max = 0;
        while (true) {
            ServerProcess.Limits lim = server.limits();
            max = Math.max(max, lim.maxMemoryInUse());
            boolean idle = lim.memoryInUse() == 0 && lim.connections() <= runtime.inspect().connections().size();
            if (idle || System.nanoTime() - deadline > 0) {
                return new ServerProcess.Limits(lim.memoryInUse(), max, lim.refusedConnections(), lim.connections(),
                        lim.budget());
            }
            Thread.sleep(100);
        }
    }

    /** Waits (bounded) until pending and in-flight are both 0, and says what it saw last. */
    private static SoakReport.Quiet awaitQuiet(RpcRuntime runtime, ServerProcess server) throws Exception {
        long start = System.nanoTime();
        long deadline = start + DRAIN_LIMIT.toNanos();
        while (true) {
            int pending = pending(runtime);
            int inFlight = server.inFlight();
            long now = System.nanoTime();
            if ((pending == 0 && inFlight == 0) || now - deadline > 0) {
                return new SoakReport.Quiet(pending, inFlight, runtime.inspect().connections().size(),
                        TimeUnit.NANOSECONDS.toMillis(now - start));
            }
            Thread.sleep(100);
        }
    }

}
