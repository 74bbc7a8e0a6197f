package io.kestrel.rpc.transport.internal;

import io.netty.channel.EventLoop;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The business-pool calls of one read burst of one connection, handed to the pool as one task: one worker wakes for
 * all of them and runs them one after the other, holding the connection's answers back until the last so they leave
 * in one flush. Without it, every call woke a worker of its own and every answer could wake the I/O thread again.
 *
 * <p>A call that blocks must not hold the calls behind it: {@value #STALL_PROPERTY} after the batch was handed
 * over (default {@value #DEFAULT_STALL_MICROS} us), a check on the connection's event loop hands every call not yet
 * started to a worker of its own, as without batching, so the calls behind a blocked one wait at most that long
 * for a thread (they still meet the pool's limits: a call no worker takes waits for the batch's own). Calls of other
 * connections are never in the batch. Each call keeps its own decode budget and deadline, its own answer and
 * failure: the batch only chooses the thread. Off with {@code -D}{@value #PROPERTY}{@code =false}.
 *
 * <p>With {@code -D}{@value #JOIN_PROPERTY}{@code =true} (off by default; see docs/performance.md) the connection's
 * calls read while its batch still runs join that batch ({@link #join}) instead of waking another worker, for
 * half the stall delay after the batch was handed over and up to {@value #JOIN_CALLS} calls: the connection's calls run
 * one after the other on one worker, one wake-up serving the calls that arrived meanwhile, their answers flushed
 * once. The stall check still gives every call not started yet a worker of its own.
 */
final class CallBatch implements Runnable {
    /** System property: {@code false} hands every business-pool call to a worker of its own, as before. */
    static final String PROPERTY = "kestrel.rpc.provider.batchCalls";
    /** System property: microseconds after which the calls of a batch not started yet get workers of their own. */
    static final String STALL_PROPERTY = "kestrel.rpc.provider.batchStallMicros";
    static final long DEFAULT_STALL_MICROS = 1000;
    /** System property: {@code true} lets the calls read while a connection's batch runs join it. */
    static final String JOIN_PROPERTY = "kestrel.rpc.provider.batchJoin";
    static final boolean ENABLED = !"false".equalsIgnoreCase(System.getProperty(PROPERTY, "true").trim());
    static final boolean JOIN = ENABLED && "true".equalsIgnoreCase(System.getProperty(JOIN_PROPERTY, "false").trim());
    static final long STALL_MICROS = stallMicros(System.getProperty(STALL_PROPERTY));
    /** Most calls in one batch: a longer burst is handed over in several. */
    static final int MAX_CALLS = 64;

    private static final int FRESH = 0;
    private static final int HOLDING = 1; // the first worker holds the connection's answers back
    private static final int SPREAD = 2; // the stall check ran: nothing is held back any more
    private static final int DONE = 3;

    private final ServerCall[] calls;
    /**
     * The calls in the batch, {@code calls[0..size)}; {@link #CLOSED} added once a worker found none left to start,
     * after which no call joins. Grows only on the event loop ({@link #join}).
     */
    private final AtomicInteger size;
    private final ResponseWriter out;
    private final Admission admission;
    /** When it was handed over; calls join only during the first half of the stall delay. */
    private final long submitNanos;
    /** The next call not started yet; workers take calls by moving it. */
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger state = new AtomicInteger(FRESH);

    private static final int CLOSED = Integer.MIN_VALUE / 2;
    /** Room of a batch for calls that join it (a longer one is handed over as the next batch). */
    private static final int JOIN_CALLS = 16;
    private static final long JOIN_NANOS = STALL_MICROS * 1000 / 2;

    private CallBatch(ServerCall[] calls, int size, ResponseWriter out, Admission admission) {
        this.calls = calls;
        this.size = new AtomicInteger(size);
        this.out = out;
        this.admission = admission;
        this.submitNanos = JOIN ? System.nanoTime() : 0L;
    }

    /**
     * Hands {@code calls[0..size)} to the business pool as one task (on the connection's event loop). Null when the
     * pool takes no task now: none of them ran, and the caller answers each "busy".
     */
    static CallBatch submit(ServerCall[] calls, int size, ResponseWriter out, Admission admission, EventLoop loop) {
        CallBatch batch = new CallBatch(java.util.Arrays.copyOf(calls, JOIN ? Math.max(size, JOIN_CALLS) : size), size,
                out, admission);
        if (!admission.submit(batch, size)) {
            return null;
        }
        loop.schedule(batch::spreadIfStalled, STALL_MICROS, TimeUnit.MICROSECONDS);
        return batch;
    }

    /**
     * On the connection's event loop: adds {@code call} to this batch if it still runs, has room, was handed over
     * less than half the stall delay ago and was not spread; false otherwise (the caller hands the call over itself).
     */
    boolean join(ServerCall call) {
        int n = size.get();
        if (n < 0 || n == calls.length || state.get() > HOLDING || System.nanoTime() - submitNanos > JOIN_NANOS) {
            return false;
        }
        calls[n] = call;
        admission.joined();
        if (size.compareAndSet(n, n + 1)) { // fails only if the worker closed the batch meanwhile
            return true;
        }
        admission.finished();
        calls[n] = null;
        return false;
    }

    /** On the first worker: runs the calls no other worker took yet, their answers flushed together. */
    @Override
    public void run() {
        out.holdFlush();
        if (!state.compareAndSet(FRESH, HOLDING)) {
            out.releaseFlush(); // the stall check came first: no holding back
        }
        try {
            runLeft();
        } finally {
            if (state.compareAndSet(HOLDING, DONE)) {
                out.releaseFlush(); // schedules one flush for every answer held back
            }
        }
    }

    private void runLeft() {
        while (true) {
            int i = next.get();
            int n = size.get();
            if (n < 0) {
                return; // closed: every call was taken
            }
            if (i < n) {
                if (next.compareAndSet(i, i + 1)) {
                    ServerCall call = calls[i];
                    calls[i] = null;
                    call.run();
                }
            } else if (size.compareAndSet(n, n + CLOSED)) {
                return; // none left, and none can join any more
            }
        }
    }

    /**
     * On the event loop, {@value #STALL_PROPERTY} after the batch was handed over: the answers held back so far are
     * let go, and every call not started yet gets a worker of its own (each takes the next call left; one the pool
     * refuses waits for a worker of the batch). When the batch's own task has not started either, it is one of those
     * workers: one task fewer, so a stall check that fires on a busy machine queues no task that finds nothing to do.
     */
    private void spreadIfStalled() {
        int was = state.getAndSet(SPREAD);
        if (was == HOLDING) {
            out.releaseFlush();
        }
        int n = size.get();
        int left = n < 0 ? 0 : n - next.get();
        // not started yet (its worker waits for a CPU or behind other tasks): the batch's own task takes one call
        int assists = was == FRESH ? left - 1 : left;
        Runnable assist = assists > 0 ? this::runLeft : null;
        for (int k = 0; k < assists && admission.assist(assist); k++) {
            // each assisting worker runs what is left, one call at a time, its answers not held back
        }
    }

    static long stallMicros(String value) {
        if (value == null || value.isBlank()) {
            return DEFAULT_STALL_MICROS;
        }
        try {
            long micros = Long.parseLong(value.trim());
            if (micros >= 1 && micros <= 10_000_000) {
                return micros;
            }
        } catch (NumberFormatException e) {
            // logged below
        }
        org.slf4j.LoggerFactory.getLogger(CallBatch.class).error("-D{} must be a number of microseconds from 1 to"
                + " 10000000, was '{}'; using {}", STALL_PROPERTY, value.length() > 40 ? value.substring(0, 40) + "..."
                : value, DEFAULT_STALL_MICROS);
        return DEFAULT_STALL_MICROS;
    }
}
