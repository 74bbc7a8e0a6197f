package io.kestrel.rpc.perf.compare;

import io.kestrel.rpc.perf.compare.system.BenchClient;
import io.kestrel.rpc.perf.compare.system.Caller;
import io.kestrel.rpc.perf.report.RunResult;
import io.kestrel.rpc.perf.support.ProcessCpu;
import io.kestrel.rpc.perf.support.ThreadSwitches;
import io.kestrel.rpc.perf.support.Sleep;
import io.kestrel.rpc.perf.support.ThreadAllocation;
import io.kestrel.rpc.perf.support.Workload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;

/**
 * Drives one configuration: N threads, each with its own {@link Caller}, call synchronously in a
 * loop: one first call each (not timed: class loading and code generation), then a warm-up, then a
 * measured window. A call counts when it both starts and ends inside the
 * window; its latency goes to the thread's own HdrHistogram (nanoseconds, 3 significant digits),
 * merged at the end. Wire bytes, allocations and the CPU time of both JVMs are read just before and
 * after the window.
 *
 * <p>Every loop is bounded: threads stop at the end of the window, after 100 consecutive errors, or
 * at a hard deadline; the runner waits for them a bounded time.
 */
final class LoadGenerator {
    /** What the generator reads at the window edges besides its own counters. */
    interface ServerProbe {
        /** Bytes allocated so far by the server JVM, or -1 if unknown. */
        long serverAllocatedBytes() throws Exception;

        /** CPU nanoseconds the server JVM has used so far, or -1 if unknown. */
        default long serverCpuNanos() throws Exception {
            return -1;
        }

        /** Thread switches of the server JVM so far, or null if unknown. */
        default ThreadSwitches.Counts serverSwitches() {
            return null;
        }

        /** Both figures from a server JVM's control channel. */
        static ServerProbe of(io.kestrel.rpc.perf.server.ServerProcess server) {
            return new ServerProbe() {
                @Override
                public long serverAllocatedBytes() throws Exception {
                    return server.allocatedBytes();
                }

                @Override
                public long serverCpuNanos() throws Exception {
                    return server.cpuNanos();
                }

                @Override
                public ThreadSwitches.Counts serverSwitches() {
                    return ThreadSwitches.of(server.pid());
                }
            };
        }
    }

    /** Receives progress while a configuration runs. */
    interface Progress {
        void phase(String phase, long callsSoFar);
    }

    private static final int WARMUP = 0;
    private static final int MEASURE = 1;
    private static final int STOP = 2;
    private static final int MAX_CONSECUTIVE_ERRORS = 100;
    private static final long HIGHEST_TRACKABLE_NANOS = TimeUnit.SECONDS.toNanos(120);

    private volatile int phase = WARMUP;

    private LoadGenerator() {
    }

    /** Runs one configuration and returns its measured figures (ratio to raw not yet set). */
    static RunResult run(String system, Workload workload, BenchClient client, long argumentBytes, int threads,
            Duration warmup, Duration measure, Duration callTimeout, ServerProbe probe, Progress progress)
            throws Exception {
        return new LoadGenerator().execute(system, workload, client, argumentBytes, threads, warmup, measure,
                callTimeout, probe, progress);
    }

    private RunResult execute(String system, Workload workload, BenchClient client, long argumentBytes, int threads,
            Duration warmup, Duration measure, Duration callTimeout, ServerProbe probe, Progress progress)
            throws Exception {
        List<Caller> callers = new ArrayList<>();
        List<Worker> workers = new ArrayList<>();
        try {
            for (int i = 0; i < threads; i++) {
                callers.add(client.newCaller(workload));
            }
            long hardDeadline = System.nanoTime() + warmup.toNanos() + measure.toNanos() + callTimeout.toNanos()
                    + TimeUnit.SECONDS.toNanos(30);
            CountDownLatch primed = new CountDownLatch(threads);
            for (int i = 0; i < threads; i++) {
                Worker w = new Worker(callers.get(i), hardDeadline, primed);
                Thread t = new Thread(w, "perf-client-" + i);
                t.setDaemon(true);
                w.thread = t;
                workers.add(w);
                t.start();
            }

            // The first call of a fresh client and server can take seconds (class loading, code
            // generation in serializers); it must not eat the warm-up or land in the window.
            progress.phase("first call", 0);
            if (!primed.await(callTimeout.toMillis() + 5_000, TimeUnit.MILLISECONDS)) {
                throw new TimeoutException("the first call of each thread did not complete within "
                        + (callTimeout.toMillis() + 5_000) + " ms");
            }
            sleepWithProgress(warmup, "warm-up", workers, progress);

            long serverAlloc0 = probe.serverAllocatedBytes();
            long serverCpu0 = probe.serverCpuNanos();
            long clientCpu0 = ProcessCpu.processCpuNanos();
            long clientAlloc0 = ThreadAllocation.totalAllocatedBytes();
            ThreadSwitches.Counts serverSwitches0 = probe.serverSwitches();
            ThreadSwitches.Counts clientSwitches0 = ThreadSwitches.self();
            long written0 = client.bytesWritten();
            long read0 = client.bytesRead();
            long t0 = System.nanoTime();
            phase = MEASURE;

            sleepWithProgress(measure, "measure", workers, progress);

            phase = STOP;
            long t1 = System.nanoTime();
            long written1 = client.bytesWritten();
            long read1 = client.bytesRead();
            long clientAlloc1 = ThreadAllocation.totalAllocatedBytes();
            ThreadSwitches.Counts clientSwitches1 = ThreadSwitches.self();
            ThreadSwitches.Counts serverSwitches1 = probe.serverSwitches();
            long clientCpu1 = ProcessCpu.processCpuNanos();
            long serverCpu1 = probe.serverCpuNanos();
            long serverAlloc1 = probe.serverAllocatedBytes();

            long joinBudgetMillis = callTimeout.toMillis() + 5_000;
            long joinDeadline = System.currentTimeMillis() + joinBudgetMillis;
            for (Worker w : workers) {
                w.thread.join(Math.max(1, joinDeadline - System.currentTimeMillis()));
            }

            Histogram all = new Histogram(HIGHEST_TRACKABLE_NANOS, 3);
            long calls = 0;
            long errors = 0;
            String firstError = null;
            for (Worker w : workers) {
                if (w.thread.isAlive()) {
                    errors++;
                    firstError = firstError != null ? firstError : w.thread.getName() + " still in a call "
                            + joinBudgetMillis + " ms after the window closed";
                }
                all.add(w.histogram);
                calls += w.calls;
                errors += w.errors;
                if (firstError == null && w.firstError.get() != null) {
                    firstError = w.firstError.get();
                }
            }
            double seconds = (t1 - t0) / 1e9;
            double perCall = calls == 0 ? Double.NaN : 1.0 / calls;
            printSwitches(system, workload, calls, serverSwitches0, serverSwitches1, clientSwitches0, clientSwitches1);
            RunResult.Status status = errors == 0 && calls > 0 ? RunResult.Status.OK : RunResult.Status.FAILED;
            String note = firstError != null ? firstError : calls == 0 ? "no call completed in the window" : "";
            return new RunResult(system, workload, status, note, threads, 0, calls, errors, calls / seconds,
                    all.getMean() / 1000.0, all.getValueAtPercentile(50) / 1000.0,
                    all.getValueAtPercentile(99) / 1000.0, all.getValueAtPercentile(99.9) / 1000.0,
                    all.getMaxValue() / 1000.0, (written1 - written0) * perCall, (read1 - read0) * perCall,
                    argumentBytes, delta(clientAlloc0, clientAlloc1) * perCall,
                    delta(serverAlloc0, serverAlloc1) * perCall, delta(clientCpu0, clientCpu1) / 1000.0 * perCall,
                    delta(serverCpu0, serverCpu1) / 1000.0 * perCall, Double.NaN);
        } finally {
            phase = STOP;
            for (Caller c : callers) {
                try {
                    c.close();
                } catch (RuntimeException e) {
                    // closing a broken connection; the result already says what failed
                }
            }
        }
    }

    private static double delta(long before, long after) {
        return before < 0 || after < 0 ? Double.NaN : after - before;
    }

    /**
     * One line per window on stdout: thread switches per call on each side (voluntary + involuntary), which the
     * report does not hold (the hand-offs of issue 36 are read from it); threads that exited in the window are left
     * out on both sides.
     */
    static void printSwitches(String system, Workload workload, long calls, ThreadSwitches.Counts server0,
            ThreadSwitches.Counts server1, ThreadSwitches.Counts client0, ThreadSwitches.Counts client1) {
        if (calls == 0 || server0 == null || server1 == null || client0 == null || client1 == null) {
            return;
        }
        ThreadSwitches.Counts s = server1.minus(server0);
        ThreadSwitches.Counts c = client1.minus(client0);
        System.out.printf("%n  [switches] %s %s: per call server %.2f voluntary + %.2f involuntary, client %.2f + %.2f%n",
                system, workload.label(), (double) s.voluntary() / calls, (double) s.involuntary() / calls,
                (double) c.voluntary() / calls, (double) c.involuntary() / calls);
    }

    private void sleepWithProgress(Duration d, String name, List<Worker> workers, Progress progress)
            throws InterruptedException {
        Sleep.until(System.nanoTime() + d.toNanos(), () -> {
            long calls = 0;
            for (Worker w : workers) {
                calls += w.callsAll;
            }
            progress.phase(name, calls);
        });
    }

    /** One load thread: calls in a loop, records what completes inside the window. */
    private final class Worker implements Runnable {
        private final Caller caller;
        private final long hardDeadline;
        private final Histogram histogram = new Histogram(HIGHEST_TRACKABLE_NANOS, 3);
        private final AtomicReference<String> firstError = new AtomicReference<>();
        private Thread thread;
        private long calls;
        private long errors;
        /** All completed calls, warm-up included; read racily for progress only. */
        private volatile long callsAll;

        private final CountDownLatch primed;

        Worker(Caller caller, long hardDeadline, CountDownLatch primed) {
            this.caller = caller;
            this.hardDeadline = hardDeadline;
            this.primed = primed;
        }

        @Override
        public void run() {
            try {
                caller.call();
            } catch (Throwable t) {
                errors++;
                firstError.compareAndSet(null, "first call: " + t);
            } finally {
                primed.countDown();
            }
            int consecutiveErrors = 0;
            long completed = 0;
            while (true) {
                int startPhase = phase;
                long start = System.nanoTime();
                if (startPhase == STOP || start - hardDeadline > 0) {
                    break;
                }
                boolean ok;
                try {
                    caller.call();
                    ok = true;
                    consecutiveErrors = 0;
                } catch (Throwable t) {
                    ok = false;
                    errors++;
                    firstError.compareAndSet(null, String.valueOf(t));
                    if (++consecutiveErrors >= MAX_CONSECUTIVE_ERRORS) {
                        firstError.set(firstError.get() + " (thread gave up after " + MAX_CONSECUTIVE_ERRORS
                                + " consecutive errors)");
                        break;
                    }
                }
                long end = System.nanoTime();
                if (ok && startPhase == MEASURE && phase == MEASURE) {
                    histogram.recordValue(Math.min(end - start, HIGHEST_TRACKABLE_NANOS));
                    calls++;
                }
                if (ok) {
                    callsAll = ++completed;
                }
            }
        }
    }
}
