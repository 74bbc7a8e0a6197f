package io.kestrel.rpc.perf.soak;

import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.demo.bid.BidFixtures;
import io.kestrel.rpc.demo.bid.BidRequest;
import io.kestrel.rpc.perf.support.BenchmarkService;
import io.kestrel.rpc.perf.support.ResultCheck;
import io.kestrel.rpc.perf.support.Workload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The mixed load of the soak mode: N threads, each picking per iteration (fixed seed per thread)
 *
 * <ul>
 *   <li>60.0% {@code bid}: the nested bid request and response,
 *   <li>10.0% {@code echo}: the 50,000-character string,
 *   <li>25.0% {@code exists(id)}: a random id, answer checked against its parity,
 *   <li>4.8% an async pair: two {@link SoakService#existsLater} calls (0-2 ms server delay) sent at
 *       once on the multiplexed connection, then both awaited,
 *   <li>0.2% a timeout probe: {@link SoakService#existsLater} with a server delay beyond the probe
 *       reference's timeout, fired without waiting; it must end in an {@link RpcTimeoutException}
 *       (counted as an expected timeout, anything else is an error), and the provider's late answer
 *       must be dropped by the consumer. At most {@value #PROBE_PERMITS} probes are outstanding; without
 *       a free permit the iteration does an {@code exists} call instead.
 * </ul>
 *
 * The latency of every call that ended as expected, timeout probes excepted (their latency is the
 * probe timeout), also goes to an HdrHistogram {@link Recorder} (nanoseconds, 3 significant digits),
 * read per interval with {@link #intervalLatency()}.
 *
 * <p>Every loop is bounded: {@link #stop} ends it, as do a hard deadline and 100 consecutive errors of a
 * thread. Counters are adders, so reading them while the load runs is cheap and racy.
 */
final class SoakLoad {
    /** Call kinds, in report order. */
    enum Kind {
        BID("bid"), ECHO("echo-50k"), EXISTS("exists"), ASYNC("exists-async"), PROBE("timeout-probe");

        final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    static final int PROBE_PERMITS = 16;
    private static final int MAX_CONSECUTIVE_ERRORS = 100;

    private final BenchmarkService bench;
    private final SoakService async;
    private final SoakService probes;
    private final Duration callTimeout;
    private final Duration probeTimeout;
    private final int probeDelayMillis;
    private final String echoText = (String) Workload.ECHO_50K.argument();
    private final Object expectedBid = Workload.BID.expectedResult();

    private final LongAdder[] calls = adders();
    private final LongAdder[] latencyNanos = adders();
    private final AtomicLong[] maxNanos = new AtomicLong[Kind.values().length];
    private final LongAdder done = new LongAdder();
    private final LongAdder errorCount = new LongAdder();
    private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    private final Map<String, String> firstMessages = new ConcurrentHashMap<>();
    private final Recorder latency = new Recorder(3);
    private final Semaphore probePermits = new Semaphore(PROBE_PERMITS);
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stop;
    private long hardDeadline;

    SoakLoad(BenchmarkService bench, SoakService async, SoakService probes, Duration callTimeout,
            Duration probeTimeout) {
        this.bench = bench;
        this.async = async;
        this.probes = probes;
        this.callTimeout = callTimeout;
        this.probeTimeout = probeTimeout;
        this.probeDelayMillis = (int) Math.min(SoakServiceImpl.MAX_DELAY_MILLIS, probeTimeout.toMillis() * 3);
        for (int i = 0; i < maxNanos.length; i++) {
            maxNanos[i] = new AtomicLong();
        }
    }

    private static LongAdder[] adders() {
        LongAdder[] a = new LongAdder[Kind.values().length];
        for (int i = 0; i < a.length; i++) {
            a[i] = new LongAdder();
        }
        return a;
    }

    /** The server-side delay of a timeout probe: three times the probe timeout. */
    int probeDelayMillis() {
        return probeDelayMillis;
    }

    /** Starts the threads; they run until {@link #stop} or {@code maxRun} plus the call timeout. */
    void start(int threadCount, Duration maxRun) {
        hardDeadline = System.nanoTime() + maxRun.toNanos() + callTimeout.toNanos();
        for (int i = 0; i < threadCount; i++) {
            int index = i;
            Thread t = new Thread(() -> work(index), "soak-client-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
    }

    /**
     * Stops the threads and waits (bounded: call timeout + 5 s) for them and for the outstanding
     * timeout probes; a thread or probe still busy then is counted as an error.
     */
    void stop() throws InterruptedException {
        stop = true;
        long deadline = System.nanoTime() + callTimeout.toNanos() + TimeUnit.SECONDS.toNanos(5);
        for (Thread t : threads) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (t.isAlive()) {
                error(null, new IllegalStateException(t.getName() + " still in a call after the load stopped"));
            }
        }
        long probeWait = probeTimeout.toMillis() + 5_000;
        if (probePermits.tryAcquire(PROBE_PERMITS, probeWait, TimeUnit.MILLISECONDS)) {
            probePermits.release(PROBE_PERMITS);
        } else {
            error(Kind.PROBE, new IllegalStateException((PROBE_PERMITS - probePermits.availablePermits())
                    + " timeout probe(s) not finished " + probeWait + " ms after the load stopped"));
        }
    }

    /** Calls that ended as expected (answers checked, timeout probes timed out), all kinds. */
    long done() {
        return done.sum();
    }

    long calls(Kind kind) {
        return calls[kind.ordinal()].sum();
    }

    /** Mean latency in microseconds (probes: until their timeout fired). */
    double meanMicros(Kind kind) {
        long n = calls(kind);
        return n == 0 ? Double.NaN : latencyNanos[kind.ordinal()].sum() / 1000.0 / n;
    }

    double maxMillis(Kind kind) {
        return maxNanos[kind.ordinal()].get() / 1e6;
    }

    /**
     * Latencies (ns) of the calls recorded since the previous call of this method (the first call:
     * since the start), timeout probes excepted.
     */
    Histogram intervalLatency() {
        return latency.getIntervalHistogram();
    }

    long errorCount() {
        return errorCount.sum();
    }

    /** Error counts by "kind: exception type", sorted. */
    Map<String, Long> errorsByType() {
        Map<String, Long> m = new TreeMap<>();
        errors.forEach((k, v) -> m.put(k, v.sum()));
        return m;
    }

    /** The first message seen per error key of {@link #errorsByType()}. */
    Map<String, String> firstMessages() {
        return new TreeMap<>(firstMessages);
    }

    private void work(int index) {
        SplittableRandom rnd = new SplittableRandom(0x5DEECE66DL * (index + 1));
        BidRequest request = BidFixtures.sampleRequest();
        int consecutiveErrors = 0;
        while (!stop && System.nanoTime() - hardDeadline < 0) {
            int r = rnd.nextInt(1000);
            boolean ok;
            if (r < 600) {
                ok = call(Kind.BID, () -> ResultCheck.check(Workload.BID, expectedBid, bench.bid(request)));
            } else if (r < 700) {
                ok = call(Kind.ECHO, () -> {
                    String answer = bench.echo(echoText);
                    if (!echoText.equals(answer)) {
                        throw new IllegalStateException("echo returned a different string of length "
                                + (answer == null ? "null" : answer.length()));
                    }
                });
            } else if (r < 950 || (r >= 998 && !probePermits.tryAcquire())) {
                long id = rnd.nextLong();
                ok = call(Kind.EXISTS, () -> {
                    if (bench.exists(id) != ((id & 1) == 0)) {
                        throw new IllegalStateException("exists(" + id + ") returned the wrong answer");
                    }
                });
            } else if (r < 998) {
                ok = asyncPair(rnd);
            } else {
                ok = fireProbe(rnd.nextLong()); // holds a permit taken in the condition above
            }
            consecutiveErrors = ok ? 0 : consecutiveErrors + 1;
            if (consecutiveErrors >= MAX_CONSECUTIVE_ERRORS) {
                error(null, new IllegalStateException(Thread.currentThread().getName() + " gave up after "
                        + MAX_CONSECUTIVE_ERRORS + " consecutive errors"));
                break;
            }
        }
    }

    private interface Action {
        void run() throws Exception;
    }

    private boolean call(Kind kind, Action action) {
        long start = System.nanoTime();
        try {
            action.run();
        } catch (Throwable t) {
            error(kind, t);
            return false;
        }
        record(kind, System.nanoTime() - start);
        return true;
    }

    /** Two async calls in flight at once on the shared connection, then both awaited. */
    private boolean asyncPair(SplittableRandom rnd) {
        long start = System.nanoTime();
        long[] ids = {rnd.nextLong(), rnd.nextLong()};
        List<CompletableFuture<Boolean>> futures = new ArrayList<>(2);
        boolean ok = true;
        for (long id : ids) {
            try {
                futures.add(async.existsLater(id, rnd.nextInt(3)));
            } catch (Throwable t) {
                error(Kind.ASYNC, t);
                futures.add(null);
                ok = false;
            }
        }
        for (int i = 0; i < ids.length; i++) {
            CompletableFuture<Boolean> f = futures.get(i);
            if (f == null) {
                continue;
            }
            try {
                Boolean answer = f.get(callTimeout.toMillis() + 2_000, TimeUnit.MILLISECONDS);
                if (answer == null || answer != ((ids[i] & 1) == 0)) {
                    throw new IllegalStateException("existsLater(" + ids[i] + ") returned the wrong answer " + answer);
                }
                record(Kind.ASYNC, System.nanoTime() - start);
            } catch (ExecutionException e) {
                error(Kind.ASYNC, e.getCause());
                ok = false;
            } catch (TimeoutException e) {
                f.cancel(false);
                error(Kind.ASYNC, new IllegalStateException("async future not completed within the call timeout + 2 s"));
                ok = false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                error(Kind.ASYNC, e);
                return false;
            } catch (Throwable t) {
                error(Kind.ASYNC, t);
                ok = false;
            }
        }
        return ok;
    }

    /** Fires one timeout probe; the caller holds a probe permit, which the probe's completion returns. */
    private boolean fireProbe(long id) {
        long start = System.nanoTime();
        CompletableFuture<Boolean> f;
        try {
            f = probes.existsLater(id, probeDelayMillis);
        } catch (Throwable t) {
            probePermits.release();
            error(Kind.PROBE, t);
            return false;
        }
        f.whenComplete((value, failure) -> {
            try {
                Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause() : failure;
                if (cause == null) {
                    error(Kind.PROBE, new IllegalStateException("answered (" + value + ") although the server delay "
                            + probeDelayMillis + " ms exceeds the timeout " + probeTimeout.toMillis() + " ms"));
                } else if (cause instanceof RpcTimeoutException) {
                    record(Kind.PROBE, System.nanoTime() - start);
                } else {
                    error(Kind.PROBE, cause);
                }
            } finally {
                probePermits.release();
            }
        });
        return true;
    }

    private void record(Kind kind, long nanos) {
        int k = kind.ordinal();
        calls[k].increment();
        latencyNanos[k].add(nanos);
        maxNanos[k].accumulateAndGet(nanos, Math::max);
        if (kind != Kind.PROBE) {
            latency.recordValue(nanos);
        }
        done.increment();
    }

    private void error(Kind kind, Throwable t) {
        String key = (kind == null ? "load" : kind.label) + ": " + t.getClass().getSimpleName();
        errors.computeIfAbsent(key, k -> new LongAdder()).increment();
        String message = String.valueOf(t.getMessage());
        firstMessages.putIfAbsent(key, message.length() > 300 ? message.substring(0, 300) + "..." : message);
        errorCount.increment();
    }
}
