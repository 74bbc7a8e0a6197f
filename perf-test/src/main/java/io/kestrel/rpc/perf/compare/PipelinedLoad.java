package io.kestrel.rpc.perf.compare;

import io.kestrel.rpc.perf.compare.system.AsyncCaller;
import io.kestrel.rpc.perf.compare.system.BenchClient;
import io.kestrel.rpc.perf.report.RunResult;
import io.kestrel.rpc.perf.support.ProcessCpu;
import io.kestrel.rpc.perf.support.ThreadSwitches;
import io.kestrel.rpc.perf.support.ThreadAllocation;
import io.kestrel.rpc.perf.support.Workload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Drives one pipelined configuration: a few caller threads (default one) keep {@code inflight} calls
 * in flight together over the client's one shared connection, each thread starting a new call as
 * soon as one of its own completes ({@link AsyncCaller}, {@code CompletableFuture}). Each thread
 * makes one first call and waits for it (not timed), then the warm-up, then the measured window.
 *
 * <p>Unlike the synchronous driver, a call counts when it <em>completes</em> inside the window (with
 * hundreds in flight, calls that straddle the window's edges are a visible share); TPS = completions
 * / window, and the latency of each such call (start to completion, the wait for a free slot not
 * included) goes to one HdrHistogram. Allocation, CPU time and wire bytes are read at the window's edges, as in
 * {@link LoadGenerator}; the driver's own per-call objects (a completion callback) are in the client
 * figure of every system alike.
 *
 * <p>Bounded: threads stop at the end of the window or at a hard deadline, and then wait at most the
 * call timeout plus 5 s for their calls in flight; a call still unanswered then is an error. With a
 * call limit ({@link #runCalls}), exactly that many calls are started in the window, which ends when
 * they have all completed.
 */
final class PipelinedLoad {
    /** What a pipelined run did besides its result: for tests and the report's checks. */
    record Outcome(RunResult result, long started, int maxInFlight) {
    }

    private static final int WARMUP = 0;
    private static final int MEASURE = 1;
    private static final int STOP = 2;
    private static final long HIGHEST_TRACKABLE_NANOS = TimeUnit.SECONDS.toNanos(120);

    private volatile int phase = WARMUP;
    private final Histogram histogram = new ConcurrentHistogram(HIGHEST_TRACKABLE_NANOS, 3);
    private final LongAdder measuredCalls = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder completedAll = new LongAdder();
    /** Claims of a call in the window, checked against the call limit (may overshoot by a claim per thread). */
    private final AtomicLong claimedInWindow = new AtomicLong();
    /** Calls actually started in the window. */
    private final LongAdder startedInWindow = new LongAdder();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();
    private final AtomicReference<String> firstError = new AtomicReference<>();
    private final long callLimit;
    private final CountDownLatch limitReached = new CountDownLatch(1);

    private PipelinedLoad(long callLimit) {
        this.callLimit = callLimit;
    }

    /** Runs one configuration for the given warm-up and window. */
    static RunResult run(String system, Workload workload, BenchClient client, long argumentBytes, int callers,
            int inflight, Duration warmup, Duration measure, Duration callTimeout, LoadGenerator.ServerProbe probe,
            LoadGenerator.Progress progress) throws Exception {
        return new PipelinedLoad(Long.MAX_VALUE).execute(system, workload, client, argumentBytes, callers, inflight,
                warmup, measure, callTimeout, probe, progress).result();
    }

    /**
     * Starts exactly {@code calls} calls (after each thread's untimed first call) with no warm-up and
     * returns when all have completed or {@code maxWait} has passed.
     */
    static Outcome runCalls(String system, Workload workload, BenchClient client, int callers, int inflight,
            long calls, Duration maxWait, Duration callTimeout) throws Exception {
        return new PipelinedLoad(calls).execute(system, workload, client, -1, callers, inflight, Duration.ZERO,
                maxWait, callTimeout, () -> -1, (p, c) -> { });
    }

    private Outcome execute(String system, Workload workload, BenchClient client, long argumentBytes, int callers,
            int inflight, Duration warmup, Duration measure, Duration callTimeout, LoadGenerator.ServerProbe probe,
            LoadGenerator.Progress progress) throws Exception {
        if (inflight < callers) {
            throw new IllegalArgumentException(inflight + " calls in flight cannot be spread over " + callers
                    + " caller threads; use --async-callers <= the smallest --inflight");
        }
        long hardDeadline = System.nanoTime() + warmup.toNanos() + measure.toNanos() + callTimeout.toNanos()
                + TimeUnit.SECONDS.toNanos(30);
        CountDownLatch primed = new CountDownLatch(callers);
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        try {
            for (int i = 0; i < callers; i++) {
                // the slots are spread as evenly as they go: 1024 over 3 threads is 342 + 341 + 341
                int slots = inflight / callers + (i < inflight % callers ? 1 : 0);
                AsyncCaller caller = client.newAsyncCaller(workload);
                if (caller == null) {
                    throw new IllegalArgumentException(system + " has no asynchronous calls");
                }
                Thread t = new Thread(() -> callLoop(caller, slots, hardDeadline, callTimeout, primed, go),
                        "perf-pipelined-" + i);
                t.setDaemon(true);
                threads.add(t);
                t.start();
            }
            progress.phase("first call", 0);
            if (!primed.await(callTimeout.toMillis() + 5_000, TimeUnit.MILLISECONDS)) {
                throw new TimeoutException("the first call of each caller thread did not complete within "
                        + (callTimeout.toMillis() + 5_000) + " ms");
            }
            boolean limited = callLimit != Long.MAX_VALUE;
            if (!limited) {
                go.countDown();
                waitWithProgress(System.nanoTime() + warmup.toNanos(), "warm-up", progress);
            }
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
            go.countDown();

            waitWithProgress(t0 + measure.toNanos(), "measure", progress);

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

            long joinDeadline = System.currentTimeMillis() + callTimeout.toMillis() + 5_000;
            for (Thread t : threads) {
                t.join(Math.max(1, joinDeadline - System.currentTimeMillis()));
            }
            int stillInFlight = inFlight.get();
            if (stillInFlight > 0) {
                errors.add(stillInFlight);
                firstError.compareAndSet(null, stillInFlight + " calls still in flight " + (callTimeout.toMillis()
                        + 5_000) + " ms after the window closed");
            }
            long calls = measuredCalls.sum();
            long errorCount = errors.sum();
            LoadGenerator.printSwitches(system + " (" + inflight + " in flight)", workload, calls, serverSwitches0,
                    serverSwitches1, clientSwitches0, clientSwitches1);
            double seconds = (t1 - t0) / 1e9;
            double perCall = calls == 0 ? Double.NaN : 1.0 / calls;
            RunResult.Status status = errorCount == 0 && calls > 0 ? RunResult.Status.OK : RunResult.Status.FAILED;
            String note = firstError.get() != null ? firstError.get()
                    : calls == 0 ? "no call completed in the window" : "";
            Histogram h = histogram.copy();
            RunResult result = new RunResult(system, workload, status, note, callers, inflight, calls, errorCount,
                    calls / seconds, h.getMean() / 1000.0, h.getValueAtPercentile(50) / 1000.0,
                    h.getValueAtPercentile(99) / 1000.0, h.getValueAtPercentile(99.9) / 1000.0,
                    h.getMaxValue() / 1000.0, (written1 - written0) * perCall, (read1 - read0) * perCall,
                    argumentBytes, delta(clientAlloc0, clientAlloc1) * perCall,
                    delta(serverAlloc0, serverAlloc1) * perCall, delta(clientCpu0, clientCpu1) / 1000.0 * perCall,
                    delta(serverCpu0, serverCpu1) / 1000.0 * perCall, Double.NaN);
            return new Outcome(result, startedInWindow.sum(), maxInFlight.get());
        } finally {
            phase = STOP;
            go.countDown();
        }
    }

    private void waitWithProgress(long deadlineNanos, String name, LoadGenerator.Progress progress)
            throws InterruptedException {
        long now;
        while ((now = System.nanoTime()) < deadlineNanos) {
            progress.phase(name, completedAll.sum());
            long step = Math.min(deadlineNanos - now, TimeUnit.SECONDS.toNanos(1));
            if (limitReached.await(step, TimeUnit.NANOSECONDS)) {
                return;
            }
        }
    }

    /** One caller thread: its first call, then keeps {@code slots} calls in flight until told to stop. */
    private void callLoop(AsyncCaller caller, int slots, long hardDeadline, Duration callTimeout,
            CountDownLatch primed, CountDownLatch go) {
        try {
            caller.start().get(callTimeout.toMillis() + 1_000, TimeUnit.MILLISECONDS);
        } catch (Throwable t) {
            failed("first call: " + t);
        } finally {
            primed.countDown();
        }
        Semaphore free = new Semaphore(slots);
        try {
            go.await();
            while (phase != STOP && System.nanoTime() - hardDeadline < 0) {
                if (!free.tryAcquire(callTimeout.toMillis() + 1_000, TimeUnit.MILLISECONDS)) {
                    failed("none of " + slots + " calls in flight completed within " + (callTimeout.toMillis() + 1_000)
                            + " ms");
                    break;
                }
                int startPhase = phase;
                if (startPhase == STOP) {
                    free.release();
                    break;
                }
                if (startPhase == MEASURE && claimedInWindow.incrementAndGet() > callLimit) {
                    free.release();
                    break;
                }
                if (startPhase == MEASURE) {
                    startedInWindow.increment();
                }
                startOne(caller, free);
            }
            // the calls still out complete on other threads; wait for them, bounded
            free.tryAcquire(slots, callTimeout.toMillis() + 5_000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void startOne(AsyncCaller caller, Semaphore free) {
        int now = inFlight.incrementAndGet();
        maxInFlight.accumulateAndGet(now, Math::max);
        long start = System.nanoTime();
        CompletableFuture<?> call;
        try {
            call = caller.start();
        } catch (Throwable t) {
            call = CompletableFuture.failedFuture(t);
        }
        call.whenComplete((value, error) -> {
            long end = System.nanoTime();
            inFlight.decrementAndGet();
            completedAll.increment();
            if (error != null) {
                failed(String.valueOf(error));
            } else if (phase == MEASURE) {
                histogram.recordValue(Math.min(end - start, HIGHEST_TRACKABLE_NANOS));
                measuredCalls.increment();
                if (callLimit != Long.MAX_VALUE && measuredCalls.sum() + errors.sum() >= callLimit) {
                    limitReached.countDown();
                }
            }
            free.release();
        });
    }

    private void failed(String error) {
        errors.increment();
        firstError.compareAndSet(null, error);
        if (callLimit != Long.MAX_VALUE && measuredCalls.sum() + errors.sum() >= callLimit) {
            limitReached.countDown();
        }
    }

    private static double delta(long before, long after) {
        return before < 0 || after < 0 ? Double.NaN : after - before;
    }
}
