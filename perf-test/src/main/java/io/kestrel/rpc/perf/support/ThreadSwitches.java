package io.kestrel.rpc.perf.support;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Thread switches of a process so far, from Linux's {@code /proc/<pid>/task/<tid>/status}: the sum over its live
 * threads of {@code voluntary_ctxt_switches} (the thread parked or waited) and {@code nonvoluntary_ctxt_switches}
 * (it was preempted). Per call, the voluntary ones count the wake-ups a call costs (a hand-off to a parked thread
 * is one switch on each side), which CPU time per call only shows together with everything else. Threads that
 * exited take their counts with them, so read it over a window in which the process's threads live throughout.
 */
public final class ThreadSwitches {
    private ThreadSwitches() {
    }

    /** Voluntary and involuntary switches of a process's live threads. */
    public record Counts(long voluntary, long involuntary) {
        /** What happened between {@code before} and this. */
        public Counts minus(Counts before) {
            return new Counts(voluntary - before.voluntary, involuntary - before.involuntary);
        }
    }

    /** This JVM's process. */
    public static Counts self() {
        return of(ProcessHandle.current().pid());
    }

    /** The counts of process {@code pid}, or null where there is no {@code /proc} (not Linux) or it exited. */
    public static Counts of(long pid) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        long voluntary = 0;
        long involuntary = 0;
        try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
            for (Path t : threads) {
                try {
                    for (String line : Files.readAllLines(t.resolve("status"))) {
                        if (line.startsWith("voluntary_ctxt_switches:")) {
                            voluntary += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                        } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                            involuntary += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                        }
                    }
                } catch (IOException threadExited) {
                    // gone between listing and reading: its counts went with it
                }
            }
        } catch (IOException | UnsupportedOperationException noProc) {
            return null;
        }
        return new Counts(voluntary, involuntary);
    }
}
