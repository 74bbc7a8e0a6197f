package io.kestrel.rpc.perf.soak;

import io.kestrel.rpc.perf.support.GitInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The Markdown of {@code soak-report.md}, also printed at the end of a soak run. */
final class SoakReport {
    /** One progress interval of the soak window. */
    record Interval(int index, double seconds, long calls, long errors, int pending, int inFlight) {
        double tps() {
            return calls / seconds;
        }
    }

    /** State at a quiet point: consumer pending calls, provider in-flight calls, and how long it took. */
    record Quiet(int pending, int inFlight, int connections, long waitedMillis) {
    }

    private SoakReport() {
    }

    static String markdown(SoakOptions o, Instant startedAt, double seconds, SoakLoad warm, SoakLoad soak,
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
                afterQuiet.pending(), afterQuiet.inFlight(), afterQuiet.waitedMillis(), SoakMain.DRAIN_LIMIT.toSeconds(),
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

    static String minutes(Duration d) {
        return String.format(Locale.ROOT, "%s min", d.toMillis() % 60_000 == 0 ? Long.toString(d.toMinutes())
                : String.format(Locale.ROOT, "%.2f", d.toMillis() / 60_000.0));
    }

    static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1048576.0);
    }

    private static String signedMb(long bytes) {
        return String.format(Locale.ROOT, "%+.1f MB", bytes / 1048576.0);
    }
}
