package io.kestrel.rpc.perf.support;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Thread switches of a process so far, from Linux's {@code /proc/<pid>/task/<tid>/status}: the sum over its live
 * threads of {@code voluntary_ctxt_switches} (the thread parked or waited) and {@code nonvoluntary_ctxt_switches}
 * (it was preempted). Per call, the voluntary ones count the wake-ups a call costs (a hand-off to a parked thread
 * is one switch on each side), which CPU time per call only shows together with everything else. A difference
 * ({@link Counts#minus}) counts per thread: a thread that exited in between drops out instead of making it negative,
 * one that started counts from zero.
 */
public final class ThreadSwitches {
    private ThreadSwitches() {
    }

    /** Voluntary and involuntary switches of a process's live threads, in all and per thread id. */
    public record Counts(long voluntary, long involuntary, Map<String, long[]> threads) {
        /** What the threads alive now did since {@code before} (a thread started since counts from zero). */
        public Counts minus(Counts before) {
            long v = 0;
            long i = 0;
            for (Map.Entry<String, long[]> t : threads.entrySet()) {
                long[] then = before.threads.getOrDefault(t.getKey(), new long[2]);
                v += t.getValue()[0] - then[0];
                i += t.getValue()[1] - then[1];
            }
            return new Counts(v, i, Map.of());
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
        Map<String, long[]> byThread = new HashMap<>();
        try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
            for (Path t : threads) {
                long[] counts = new long[2];
                try {
                    for (String line : Files.readAllLines(t.resolve("status"))) {
                        if (line.startsWith("voluntary_ctxt_switches:")) {
                            counts[0] = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                        } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                            counts[1] = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                        }
                    }
                } catch (IOException threadExited) {
                    continue; // gone between listing and reading: its counts went with it
                }
                voluntary += counts[0];
                involuntary += counts[1];
                byThread.put(t.getFileName().toString(), counts);
            }
        } catch (IOException | UnsupportedOperationException noProc) {
            return null;
        }
        return new Counts(voluntary, involuntary, byThread);
    }
}
