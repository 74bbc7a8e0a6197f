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
 */
final class CallBatch implements Runnable {
    /** System property: {@code false} hands every business-pool call to a worker of its own, as before. */
    static final String PROPERTY = "kestrel.rpc.provider.batchCalls";
    /** System property: microseconds after which the calls of a batch not started yet get workers of their own. */
    static final String STALL_PROPERTY = "kestrel.rpc.provider.batchStallMicros";
    static final long DEFAULT_STALL_MICROS = 1000;
    static final boolean ENABLED = !"false".equalsIgnoreCase(System.getProperty(PROPERTY, "true").trim());
    static final long STALL_MICROS = stallMicros(System.getProperty(STALL_PROPERTY));
    /** Most calls in one batch: a longer burst is handed over in several. */
    static final int MAX_CALLS = 64;

    private static final int FRESH = 0;
    private static final int HOLDING = 1; // the first worker holds the connection's answers back
    private static final int SPREAD = 2; // the stall check ran: nothing is held back any more
    private static final int DONE = 3;

    private final ServerCall[] calls;
    private final int size;
    private final ResponseWriter out;
    /** The next call not started yet; workers take calls by moving it. */
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger state = new AtomicInteger(FRESH);

    private CallBatch(ServerCall[] calls, int size, ResponseWriter out) {
        this.calls = calls;
        this.size = size;
        this.out = out;
    }

    /**
     * Hands {@code calls[0..size)} to the business pool as one task (on the connection's event loop). False when the
     * pool takes no task now: none of them ran, and the caller answers each "busy".
     */
    static boolean submit(ServerCall[] calls, int size, ResponseWriter out, Admission admission, EventLoop loop) {
        CallBatch batch = new CallBatch(java.util.Arrays.copyOf(calls, size), size, out);
        if (!admission.submit(batch, size)) {
            return false;
        }
        loop.schedule(() -> batch.spreadIfStalled(admission), STALL_MICROS, TimeUnit.MICROSECONDS);
        return true;
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
        int i;
        while ((i = next.getAndIncrement()) < size) {
            ServerCall call = calls[i];
            calls[i] = null;
            call.run();
        }
    }

    /**
     * On the event loop, {@value #STALL_PROPERTY} after the batch was handed over: the answers held back so far are
     * let go, and every call not started yet gets a worker of its own (each takes the next call left; one the pool
     * refuses waits for a worker of the batch).
     */
    private void spreadIfStalled(Admission admission) {
        if (state.getAndSet(SPREAD) == HOLDING) {
            out.releaseFlush();
        }
        int left = size - next.get();
        Runnable assist = left > 0 ? this::runLeft : null;
        for (int k = 0; k < left && admission.assist(assist); k++) {
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
