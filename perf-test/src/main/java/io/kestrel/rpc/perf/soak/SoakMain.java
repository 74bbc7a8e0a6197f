package io.kestrel.rpc.perf.soak;

import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.perf.compare.system.SystemSettings;
import io.kestrel.rpc.perf.server.ClasspathSnapshot;
import io.kestrel.rpc.perf.server.ServerLaunch;
import io.kestrel.rpc.perf.server.ServerProcess;
import io.kestrel.rpc.perf.support.BenchmarkService;
import io.kestrel.rpc.perf.support.CommandLine;
import io.kestrel.rpc.perf.support.DirectRpc;
import io.kestrel.rpc.perf.support.GitInfo;
import io.kestrel.rpc.perf.support.HeapProbe;
import io.kestrel.rpc.perf.support.SerializationVariant;
import io.kestrel.rpc.transport.Connection;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

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
 * Writes {@code soak-report.md} (and {@code server-soak.log}) to the output directory. Exits 0 only if
 * calls completed, no error occurred (expected timeouts of the timeout probes are not errors), and
 * pending and in-flight are 0 at the end; 1 otherwise; 2 on bad options.
 */
public final class SoakMain {
    private static final Duration DRAIN_LIMIT = Duration.ofSeconds(15);

    /** One progress interval of the soak window. */
    record Interval(int index, double seconds, long calls, long errors, int pending, int inFlight) {
        double tps() {
            return calls / seconds;
        }
    }

    /** State at a quiet point: consumer pending calls, provider in-flight calls, and how long it took. */
    record Quiet(int pending, int inFlight, int connections, long waitedMillis) {
    }

    private SoakMain() {
    }

    public static void main(String[] args) throws Exception {
        SoakOptions options = CommandLine.parseOrExit(args, SoakOptions::parse, SoakOptions.USAGE);
        System.exit(run(options, System.out));
    }

    /** Runs the soak and writes the report; returns the exit code (0 passed, 1 failed). */
    static int run(SoakOptions o, PrintStream console) throws Exception {
        Files.createDirectories(o.outputDir());
        String system = SoakServer.PREFIX + o.serialization();
        Path log = o.outputDir().resolve("server-soak.log");
        Files.deleteIfExists(log);
        Instant startedAt = Instant.now();
        console.printf(Locale.ROOT, "Soak: %s, %d threads, %s with DemoOptimizer, warm-up %d s, call timeout %d ms,"
                + " probe timeout %d ms; provider in a separate JVM (log %s)%n", minutes(o.window()), o.threads(),
                o.serialization(), o.warmup().toSeconds(), o.callTimeout().toMillis(), o.probeTimeout().toMillis(), log);

        long maxServerSeconds = o.window().toSeconds() + o.warmup().toSeconds() + 600;
        ServerLaunch launch = new ServerLaunch(system, SystemSettings.DEFAULTS.withCallTimeout(o.callTimeout()),
                maxServerSeconds);

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
                sleep(o.warmup());
                warm.stop();
                console.printf(Locale.ROOT, "Warm-up: %,d calls, %d errors%n", warm.done(), warm.errorCount());
                Quiet beforeQuiet = awaitQuiet(runtime, server);
                long clientBefore = HeapProbe.usedAfterGc();
                ServerProcess.Heap serverBefore = server.heap();
                console.printf(Locale.ROOT, "Heap before: client %s, server %s (used after System.gc())%n",
                        mb(clientBefore), mb(serverBefore.usedBytes()));

                SoakLoad soak = new SoakLoad(bench, async, probes, o.callTimeout(), o.probeTimeout());
                List<Interval> intervals = new ArrayList<>();
                long t0 = System.nanoTime();
                soak.start(o.threads(), o.window());
                long end = t0 + o.window().toNanos();
                long lastCalls = 0;
                long lastErrors = 0;
                long lastAt = t0;
                int totalIntervals = (int) Math.ceil(o.window().toMillis() / 60_000.0);
                for (int i = 1; i <= totalIntervals; i++) {
                    long target = Math.min(end, t0 + TimeUnit.MINUTES.toNanos(i));
                    sleepUntil(target);
                    long now = System.nanoTime();
                    long calls = soak.done();
                    long errors = soak.errorCount();
                    Interval iv = new Interval(i, (now - lastAt) / 1e9, calls - lastCalls, errors - lastErrors,
                            pending(runtime), server.inFlight());
                    intervals.add(iv);
                    console.printf(Locale.ROOT, "  minute %d/%d: %,d calls in %.1f s, %,.0f TPS, %d errors, "
                            + "consumer pending %d, provider in-flight %d (load running)%n", i, totalIntervals,
                            iv.calls(), iv.seconds(), iv.tps(), iv.errors(), iv.pending(), iv.inFlight());
                    lastCalls = calls;
                    lastErrors = errors;
                    lastAt = now;
                }
                soak.stop();
                double seconds = (System.nanoTime() - t0) / 1e9;

                Quiet afterQuiet = awaitQuiet(runtime, server);
                long clientAfter = HeapProbe.usedAfterGc();
                ServerProcess.Heap serverAfter = server.heap();
                int pendingEnd = pending(runtime);
                int inFlightEnd = serverAfter.inFlight();

                long errors = warm.errorCount() + soak.errorCount();
                boolean passed = errors == 0 && pendingEnd == 0 && inFlightEnd == 0 && soak.done() > 0;
                String report = report(o, startedAt, seconds, warm, soak, intervals, beforeQuiet, afterQuiet,
                        clientBefore, clientAfter, serverBefore.usedBytes(), serverAfter.usedBytes(), pendingEnd,
                        inFlightEnd, passed);
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
        int sum = 0;
        for (Connection c : runtime.client().connections()) {
            sum += c.pendingCalls();
        }
        return sum;
    }

    /** Waits (bounded) until pending and in-flight are both 0, and says what it saw last. */
    private static Quiet awaitQuiet(RpcRuntime runtime, ServerProcess server) throws Exception {
        long start = System.nanoTime();
        long deadline = start + DRAIN_LIMIT.toNanos();
        while (true) {
            int pending = pending(runtime);
            int inFlight = server.inFlight();
            long now = System.nanoTime();
            if ((pending == 0 && inFlight == 0) || now - deadline > 0) {
                return new Quiet(pending, inFlight, runtime.client().connections().size(),
                        TimeUnit.NANOSECONDS.toMillis(now - start));
            }
            Thread.sleep(100);
        }
    }

    private static void sleep(Duration d) throws InterruptedException {
        sleepUntil(System.nanoTime() + d.toNanos());
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long now;
        while ((now = System.nanoTime()) < nanoTime) {
            TimeUnit.NANOSECONDS.sleep(Math.min(nanoTime - now, TimeUnit.SECONDS.toNanos(1)));
        }
    }

    static String report(SoakOptions o, Instant startedAt, double seconds, SoakLoad warm, SoakLoad soak,
            List<Interval> intervals, Quiet beforeQuiet, Quiet afterQuiet, long clientBefore, long clientAfter,
            long serverBefore, long serverAfter, int pendingEnd, int inFlightEnd, boolean passed) {
        StringBuilder md = new StringBuilder();
        md.append("# Kestrel RPC soak report\n\n");
        md.append("- Verdict: **").append(passed ? "PASSED" : "FAILED").append("** (no errors, consumer pending 0"
                + " and provider in-flight 0 at the end)\n");
        md.append("- Started: ").append(startedAt).append(", commit ").append(GitInfo.shortHead()).append('\n');
        md.append(String.format(Locale.ROOT, "- Machine: %d CPUs, Java %s; client and server JVMs -Xms512m"
                + " -Xmx512m, provider in a separate JVM on 127.0.0.1%n",
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version")));
        md.append(String.format(Locale.ROOT, "- Settings: %d threads, serialization %s with DemoOptimizer, one"
                + " RpcRuntime with direct-url references (retries 0), call timeout %d ms, probe timeout %d ms"
                + " (server delay %d ms)%n", o.threads(), o.serialization(), o.callTimeout().toMillis(),
                o.probeTimeout().toMillis(), soak.probeDelayMillis()));
        md.append(String.format(Locale.ROOT, "- Duration: %.1f s of soak (asked %s) after a %d s warm-up"
                + " (%,d calls, %d errors)%n", seconds, minutes(o.window()), o.warmup().toSeconds(), warm.done(),
                warm.errorCount()));
        md.append(String.format(Locale.ROOT, "- Calls: %,d, %,.0f TPS on average; errors: %d%n%n", soak.done(),
                soak.done() / seconds, soak.errorCount()));

        md.append("## End state\n\n| | before | after | growth |\n|---|---:|---:|---:|\n");
        md.append(String.format(Locale.ROOT, "| client heap used after GC | %s | %s | %s |%n", mb(clientBefore),
                mb(clientAfter), signedMb(clientAfter - clientBefore)));
        md.append(String.format(Locale.ROOT, "| server heap used after GC | %s | %s | %s |%n", mb(serverBefore),
                mb(serverAfter), signedMb(serverAfter - serverBefore)));
        md.append(String.format(Locale.ROOT, "| consumer pending calls | %d | **%d** | |%n", beforeQuiet.pending(),
                pendingEnd));
        md.append(String.format(Locale.ROOT, "| provider in-flight calls | %d | **%d** | |%n",
                beforeQuiet.inFlight(), inFlightEnd));
        md.append(String.format(Locale.ROOT, "| consumer connections | %d | %d | |%n%n", beforeQuiet.connections(),
                afterQuiet.connections()));
        md.append(String.format(Locale.ROOT, "Pending and in-flight reached %d/%d %d ms after the load stopped"
                + " (limit %d s; the last timeout probes' late answers arrive up to %d ms after they were sent)."
                + " Heap: System.gc() three times with a 300 ms settle each, then MemoryMXBean heap used, the"
                + " same way in both JVMs, with no load running; \"before\" is after the warm-up.%n%n",
                afterQuiet.pending(), afterQuiet.inFlight(), afterQuiet.waitedMillis(), DRAIN_LIMIT.toSeconds(),
                soak.probeDelayMillis()));

        md.append("## TPS per minute\n\n| minute | seconds | calls | TPS | errors | pending | in-flight |\n");
        md.append("|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Interval iv : intervals) {
            md.append(String.format(Locale.ROOT, "| %d | %.1f | %,d | %,.0f | %d | %d | %d |%n", iv.index(),
                    iv.seconds(), iv.calls(), iv.tps(), iv.errors(), iv.pending(), iv.inFlight()));
        }
        md.append("\nPending and in-flight here are snapshots taken while the load runs.\n\n");

        md.append("## Mix\n\n| kind | calls | share | mean latency us | max latency ms |\n");
        md.append("|---|---:|---:|---:|---:|\n");
        for (SoakLoad.Kind k : SoakLoad.Kind.values()) {
            long n = soak.calls(k);
            md.append(String.format(Locale.ROOT, "| %s | %,d | %.1f%% | %.0f | %.1f |%n", k.label, n,
                    100.0 * n / Math.max(1, soak.done()), soak.meanMicros(k), soak.maxMillis(k)));
        }
        md.append("""

                Per iteration a thread picks bid 60%, echo-50k 10%, exists(random id) 25%, an async pair
                (two SoakService.existsLater calls with a 0-2 ms server delay, sent together, then awaited) 4.8%,
                and a timeout probe 0.2% (existsLater with a server delay beyond the probe timeout, not awaited;
                at most 16 outstanding, else an exists call). A probe counts as a call when it ends in
                RpcTimeoutException, its latency being the time until the timeout fired; anything else is an error.

                """);

        md.append("## Errors by type\n\n");
        Map<String, Long> all = new java.util.TreeMap<>();
        Map<String, String> messages = new java.util.TreeMap<>();
        warm.errorsByType().forEach((k, v) -> all.merge("warm-up " + k, v, Long::sum));
        warm.firstMessages().forEach((k, v) -> messages.put("warm-up " + k, v));
        all.putAll(soak.errorsByType());
        messages.putAll(soak.firstMessages());
        if (all.isEmpty()) {
            md.append("None.\n");
        } else {
            md.append("| kind: type | count | first message |\n|---|---:|---|\n");
            all.forEach((k, v) -> md.append("| ").append(k).append(" | ").append(v).append(" | ")
                    .append(messages.getOrDefault(k, "").replace('|', '/').replace('\n', ' ')).append(" |\n"));
        }
        return md.toString();
    }

    private static String minutes(Duration d) {
        return String.format(Locale.ROOT, "%s min", d.toMillis() % 60_000 == 0 ? Long.toString(d.toMinutes())
                : String.format(Locale.ROOT, "%.2f", d.toMillis() / 60_000.0));
    }

    private static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1048576.0);
    }

    private static String signedMb(long bytes) {
        return String.format(Locale.ROOT, "%+.1f MB", bytes / 1048576.0);
    }
}
