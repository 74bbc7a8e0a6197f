package io.kestrel.rpc.perf.compare;

import io.kestrel.rpc.perf.report.RunResult;
import io.kestrel.rpc.perf.report.Units;
import io.kestrel.rpc.perf.support.Workload;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * The progress line: which configuration runs, its phase and calls so far, elapsed time and an
 * estimate of what is left; one summary line per finished configuration. On a terminal the running
 * line is rewritten in place; otherwise only phase changes are printed.
 */
final class Progress {
    private final PrintStream out;
    private final boolean tty;
    private long startNanos;
    private int total;
    private int done;
    private double perConfigSeconds;
    private String current = "";
    private String lastPhase = "";
    private boolean lineOpen;

    Progress(PrintStream out, boolean tty) {
        this.out = out;
        this.tty = tty;
    }

    void start(int totalConfigs, double perConfig, double serverStart) {
        this.total = totalConfigs;
        this.perConfigSeconds = perConfig;
        this.startNanos = System.nanoTime();
    }

    /** Announces round {@code round} of {@code rounds} and its order of systems. */
    void roundStarting(int round, int rounds, List<String> order) {
        closeLine();
        out.printf(Locale.ROOT, "=== round %d of %d: %s ===%n", round, rounds, String.join(", ", order));
    }

    void systemSkipped() {
        // nothing ran; the estimate adjusts itself through done()
    }

    void serverStarting(String system) {
        closeLine();
        out.printf(Locale.ROOT, "[%d/%d] starting %s server JVM ...%n", done + 1, total, system);
    }

    /** @param inflight calls kept in flight by a pipelined run, 0 for a synchronous one */
    void configStarting(String system, Workload w, int inflight) {
        current = String.format(Locale.ROOT, "[%d/%d] %s / %s%s", done + 1, total, system, w.label(),
                inflight > 0 ? " / " + inflight + " in flight" : "");
        lastPhase = "";
    }

    /** Called by the load generator about once a second. */
    void phase(String phase, long callsSoFar) {
        if (tty) {
            out.printf(Locale.ROOT, "\r%s: %-7s calls=%,d  elapsed %s, ~%s left   ", current, phase, callsSoFar,
                    Units.clock(elapsed()), Units.clock(remaining()));
            lineOpen = true;
        } else if (!phase.equals(lastPhase)) {
            out.printf(Locale.ROOT, "%s: %s ...%n", current, phase);
        }
        lastPhase = phase;
    }

    /**
     * Prints the summary line of a finished configuration and returns it.
     *
     * @param reference the raw Netty TPS of the workload for a synchronous run, the same system's
     *     synchronous TPS for a pipelined one (NaN: not known)
     */
    RunResult done(RunResult r, double reference) {
        done++;
        closeLine();
        String head = String.format(Locale.ROOT, "[%d/%d] %s / %s%s", done, total, r.system(), r.workload().label(),
                r.pipelined() ? " / " + r.inflight() + " in flight" : "");
        String ratio = !(reference > 0) ? "" : String.format(Locale.ROOT, r.pipelined() ? " (%.2fx sync)" : " (%.2fx raw)",
                r.tps() / reference);
        if (r.status() == RunResult.Status.OK) {
            out.printf(Locale.ROOT, "%s: %,.0f TPS%s, p50 %.0f us, p99 %.0f us, req %.0f B, resp %.0f B, "
                            + "alloc client %s / server %s per call, %d errors  (elapsed %s, ~%s left)%n",
                    head, r.tps(), ratio,
                    r.p50Micros(), r.p99Micros(), r.requestBytesPerCall(), r.responseBytesPerCall(),
                    Units.bytes(r.clientAllocPerCall()), Units.bytes(r.serverAllocPerCall()), r.errors(),
                    Units.clock(elapsed()), Units.clock(remaining()));
        } else {
            out.printf(Locale.ROOT, "%s: %s %s%n", head, r.status(), r.note());
        }
        return r;
    }

    private void closeLine() {
        if (lineOpen) {
            out.println();
            lineOpen = false;
        }
    }

    private double elapsed() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private double remaining() {
        return Math.max(0, (total - done) * perConfigSeconds);
    }
}
