package io.kestrel.rpc.perf.soak;

import io.kestrel.rpc.perf.soak.attack.AttackKind;
import io.kestrel.rpc.perf.soak.attack.AttackPlan;
import io.kestrel.rpc.perf.soak.attack.AttackResult;
import io.kestrel.rpc.perf.support.GitInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;

/** The Markdown of {@code soak-report.md}, also printed at the end of a soak run. */
final class SoakReport {
    /**
     * One progress interval of the soak window: the load's figures, then the provider's (budgeted
     * memory at most and now, connections refused since the window began, connections open; -1 where
     * the provider does not know them).
     */
    record Interval(int index, double seconds, long calls, long errors, int pending, int inFlight, Latency latency,
            long memoryMax, long memoryNow, long refused, int connections) {
        double tps() {
            return calls / seconds;
        }
    }

    /** Latency percentiles of the well-behaved calls (timeout probes excepted), in microseconds. */
    record Latency(long count, double p50, double p99, double p999, double max) {
        static Latency of(Histogram h) {
            return new Latency(h.getTotalCount(), h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(99) / 1e3,
                    h.getValueAtPercentile(99.9) / 1e3, h.getMaxValue() / 1e3);
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "p50 %s, p99 %s, p99.9 %s, max %s", ms(p50), ms(p99), ms(p999), ms(max));
        }

        static String ms(double micros) {
            return micros < 10_000 ? String.format(Locale.ROOT, "%.2f ms", micros / 1e3)
                    : String.format(Locale.ROOT, "%.0f ms", micros / 1e3);
        }
    }

    /**
     * The attack figures of a soak with attacks.
     *
     * @param results each attack's counts
     * @param limits the provider's limits (a LimitsSpec)
     * @param budget the provider's memory budget
     * @param memoryMax the most budgeted memory the provider held, sampled every millisecond
     * @param memoryLast what it held after the attacks stopped and it went quiet
     * @param refused connections the provider refused during the window
     * @param connectionsEnd connections open on the provider at the end
     */
    record Attacked(List<AttackResult> results, String limits, long budget, long memoryMax, long memoryLast,
            long refused, int connectionsEnd) {
        /** Every attack met its limit and the provider gave its memory back. */
        boolean passed() {
            return memoryLast == 0 && results.stream().allMatch(AttackResult::met);
        }
    }

    /** State at a quiet point: consumer pending calls, provider in-flight calls, and how long it took. */
    record Quiet(int pending, int inFlight, int connections, long waitedMillis) {
    }

    private SoakReport() {
    }

    static String markdown(SoakOptions o, Instant startedAt, double seconds, SoakLoad warm, SoakLoad soak,
            List<Interval> intervals, Quiet beforeQuiet, Quiet afterQuiet, long clientBefore, long clientAfter,
            long serverBefore, long serverAfter, int pendingEnd, int inFlightEnd, boolean passed, Latency latency,
            Attacked attacked) {
        StringBuilder md = new StringBuilder();
        md.append("# Kestrel RPC soak report").append(attacked == null ? "" : " (with attacks)").append("\n\n");
        md.append("- Verdict: **").append(passed ? "PASSED" : "FAILED").append("** (no errors, consumer pending 0"
                + " and provider in-flight 0 at the end").append(attacked == null ? ""
                        : "; every attack met its limit, provider budgeted memory 0 after the attacks").append(")\n");
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
        md.append(String.format(Locale.ROOT, "- Calls: %,d, %,.0f TPS on average; errors: %d%n", soak.done(),
                soak.done() / seconds, soak.errorCount()));
        md.append(String.format(Locale.ROOT, "- Latency (%,d calls, timeout probes excepted): %s%n", latency.count(),
                latency));
        if (attacked != null) {
            md.append(String.format(Locale.ROOT, "- Provider under attack: budgeted memory max %s of a %s budget,"
                    + " %s after the attacks; %,d connections refused; attacks: %s%n",
                    mb(attacked.memoryMax()), mb(attacked.budget()), mb(attacked.memoryLast()), attacked.refused(),
                    attackSummary(attacked.results())));
        }
        md.append('\n');

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

        md.append("## TPS per minute\n\n| minute | seconds | calls | TPS | errors | pending | in-flight | p50 ms"
                + " | p99 ms | p99.9 ms | max ms |").append(attacked == null ? ""
                        : " provider memory max | refused so far | provider connections |").append('\n');
        md.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|").append(attacked == null ? ""
                : "---:|---:|---:|").append('\n');
        for (Interval iv : intervals) {
            Latency l = iv.latency();
            md.append(String.format(Locale.ROOT, "| %d | %.1f | %,d | %,.0f | %d | %d | %d | %.2f | %.2f | %.2f | %.1f |",
                    iv.index(), iv.seconds(), iv.calls(), iv.tps(), iv.errors(), iv.pending(), iv.inFlight(),
                    l.p50() / 1e3, l.p99() / 1e3, l.p999() / 1e3, l.max() / 1e3));
            if (attacked != null) {
                md.append(String.format(Locale.ROOT, " %s | %,d | %d |", mb(iv.memoryMax()), iv.refused(),
                        iv.connections()));
            }
            md.append('\n');
        }
        md.append("\nPending and in-flight here are snapshots taken while the load runs. Latency: HdrHistogram of"
                + " every call that ended as expected but the timeout probes, per minute.\n\n");
        if (attacked != null) {
            attacks(md, attacked);
        }

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

    private static void attacks(StringBuilder md, Attacked a) {
        md.append("## Attacks\n\n");
        md.append(String.format(Locale.ROOT, "Provider limits: `%s` (budget %s: four %d MiB units plus a %s reserve;"
                + " AttackPlan). Budgeted memory max %s (sampled every millisecond in the provider), %s after the"
                + " attacks stopped; %,d connections refused during the window; %d connections open at the end.%n%n",
                a.limits(), mb(a.budget()), AttackPlan.UNIT >> 20, mb(AttackPlan.RESERVE), mb(a.memoryMax()),
                mb(a.memoryLast()), a.refused(), a.connectionsEnd()));
        md.append("| attack | connections opened | closed by the provider | mean / max life ms | requests | answers"
                + " by status | attack-side errors | expected | met |\n");
        md.append("|---|---:|---:|---:|---:|---|---:|---|---|\n");
        for (AttackResult r : a.results()) {
            String answers = r.answers().isEmpty() ? "none read" : r.answers().entrySet().stream()
                    .map(e -> String.format(Locale.ROOT, "%s %,d", e.getKey(), e.getValue()))
                    .collect(Collectors.joining(", "));
            md.append(String.format(Locale.ROOT, "| %s | %,d | %,d | %,d / %,d | %,d | %s | %d | %s | %s |%n",
                    r.kind().label, r.opened(), r.closedByProvider(), r.lifetimeMeanMillis(), r.lifetimeMaxMillis(),
                    r.requests(), answers, r.errors(), r.expectation(), r.met() ? "yes" : "**no**"));
        }
        md.append('\n');
        for (AttackResult r : a.results()) {
            md.append("- ").append(r.kind().label).append(": ").append(r.kind().description);
            if (!r.note().isEmpty()) {
                md.append(" (").append(r.note()).append(')');
            }
            if (r.errors() > 0) {
                md.append("; first attack-side error: ").append(r.firstError().replace('|', '/'));
            }
            md.append('\n');
        }
        md.append("""

                "Closed by the provider" counts connections the provider refused or closed while the attack
                still used them; a connection's life runs from its connect to that close. Requests count frames
                written in full (trickle: frames begun). Only the greedy client reads answers.

                """);
    }

    /** One line: per attack, connections opened/closed by the provider, and the greedy client's answers. */
    static String attackSummary(List<AttackResult> results) {
        StringBuilder sb = new StringBuilder();
        for (AttackResult r : results) {
            if (!sb.isEmpty()) {
                sb.append("; ");
            }
            sb.append(r.kind().label).append(' ');
            if (r.kind() == AttackKind.GREEDY) {
                sb.append(r.answers().entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
                        .collect(Collectors.joining(", ")));
                sb.append(String.format(Locale.ROOT, " (%d conn)", r.opened()));
            } else {
                sb.append(String.format(Locale.ROOT, "%d opened/%d closed by provider", r.opened(), r.closedByProvider()));
            }
            if (r.errors() > 0) {
                sb.append(", ").append(r.errors()).append(" attack-side errors");
            }
        }
        return sb.toString();
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
