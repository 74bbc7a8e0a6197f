package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.api.TransportException;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.transport.spi.MethodRef;
import io.kestrel.rpc.transport.spi.RpcRequest;
import io.netty.util.Timer;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The calls of one connection that wait for an answer, keyed by request id, each with its deadline.
 * A call leaves the table exactly once: answered ({@link #take}), timed out, failed
 * ({@link PendingCall#fail}) or swept by {@link #failAll}; so nothing leaks and no future completes
 * twice. Thread-safe.
 *
 * <p>Deadlines are not one timer entry per call: while calls are pending, one task of this table
 * runs on the shared timer wheel every {@value #SWEEP_MILLIS} ms and, once the earliest deadline it
 * knows of has passed, fails the calls whose deadlines have passed. Most calls are answered long
 * before their deadline, so a call costs no timer entry to allocate, queue, cancel and unlink,
 * the table is scanned about once per timeout period, and a timeout fires at most one sweep late:
 * the resolution the wheel's 10 ms tick gave a timer entry per call.
 *
 * <p>The table ({@link CallTable}) is keyed by the primitive id and allocates nothing per call. The sweep
 * and {@link #failAll} copy the calls out of it and fail them outside its locks.
 */
public final class PendingCalls {
    private static final Logger log = LoggerFactory.getLogger(PendingCalls.class);
    private final CallTable calls = new CallTable();
    private final io.kestrel.rpc.transport.internal.stream.ClientStreams streams =
            new io.kestrel.rpc.transport.internal.stream.ClientStreams(this::size);
    private final AtomicInteger count = new AtomicInteger();
    private final AtomicLong ids = new AtomicLong();
    private final Timer timer;
    private final int max;
    private final Supplier<String> route;
    private final AtomicReference<Runnable> whenEmpty = new AtomicReference<>();
    /** No deadline of a pending call is before this (System.nanoTime clock); it may be earlier than any. */
    private final AtomicLong earliest = new AtomicLong(Long.MAX_VALUE);
    /** The sweep task is scheduled (it is while any call is pending). */
    private final AtomicBoolean sweeping = new AtomicBoolean();

    /** How often, while calls are pending, the deadlines are checked. */
    static final long SWEEP_MILLIS = 10;

    /**
     * @param timer the wheel deadlines run on
     * @param max calls that may be pending at once
     * @param route "local -> remote" of the connection, for timeout messages
     */
    public PendingCalls(Timer timer, int max, Supplier<String> route) {
        this.timer = timer;
        this.max = max;
        this.route = route;
    }

    /** The connection's open streams (each also a pending call: the one that opened it). */
    public io.kestrel.rpc.transport.internal.stream.ClientStreams streams() {
        return streams;
    }

    /** Most calls that may wait at once. */
    public int max() {
        return max;
    }

    /**
     * Reserves a place for one call; false when {@link #max} calls are already pending. A reservation
     * becomes a call with {@link #add} or is given back with {@link #unreserve}.
     */
    public boolean reserve() {
        if (count.incrementAndGet() > max) {
            count.decrementAndGet();
            return false;
        }
        return true;
    }

    public void unreserve() {
        count.decrementAndGet();
    }

    /** Turns a reservation into a pending call with a fresh id and starts its deadline. */
    public PendingCall add(RpcRequest request) {
        return add(request, null);
    }

    /**
     * As {@link #add(RpcRequest)}; {@code listener} (null: none) is told the call's outcome once, on the
     * thread that completes its future.
     */
    public PendingCall add(RpcRequest request, BiConsumer<Object, Throwable> listener) {
        return add(request.method(), request.serializer(), request.arguments(), request.attachments(),
                request.timeoutMillis(), request.returnType(), listener);
    }

    /**
     * As {@link #add(RpcRequest, BiConsumer)}, from the parts of a request (see {@link RpcRequest}), so
     * that the pending call is the only object the call costs here.
     */
    public PendingCall add(MethodRef method, Serializer serializer, Object[] arguments, Map<String, String> attachments,
            int timeoutMillis, Class<?> returnType, BiConsumer<Object, Throwable> listener) {
        PendingCall call = new PendingCall(this, ids.incrementAndGet(), method, serializer, arguments, attachments,
                timeoutMillis, returnType, listener);
        calls.put(call);
        lowerEarliest(call.deadlineNanos); // later calls usually have later deadlines: one read
        if (!sweeping.get() && sweeping.compareAndSet(false, true)) {
            scheduleSweep();
        }
        return call;
    }

    private void lowerEarliest(long deadline) {
        long e;
        while (deadline - (e = earliest.get()) < 0 && !earliest.compareAndSet(e, deadline)) {
            // another thread moved it: compare again
        }
    }

    private void scheduleSweep() {
        try {
            timer.newTimeout(t -> sweep(), SWEEP_MILLIS, TimeUnit.MILLISECONDS);
        } catch (IllegalStateException e) {
            sweeping.set(false); // the timer is stopped: the transport is closed, and so are its connections
        }
    }

    /** On the timer: fails the calls past their deadline, and goes on while any call is pending. */
    private void sweep() {
        try {
            long now = System.nanoTime();
            if (now - earliest.get() >= 0) {
                expireDue(now);
            }
        } finally {
            // whatever a failed call's callbacks did, the deadlines of the others are still watched
            if (count.get() > 0 || !stopSweeping()) {
                scheduleSweep();
            }
        }
    }

    /** True when sweeping stopped; false when a call added meanwhile needs it to go on. */
    private boolean stopSweeping() {
        sweeping.set(false);
        // a call added meanwhile either saw the flag down (and scheduled) or is counted here
        return count.get() == 0 || !sweeping.compareAndSet(false, true);
    }

    /**
     * Fails every call whose deadline has passed and finds the earliest deadline left. The mark is
     * reset first, so a call added meanwhile lowers it again and is not lost.
     */
    private void expireDue(long now) {
        earliest.getAndSet(Long.MAX_VALUE);
        for (PendingCall call : calls.snapshot()) {
            if (now - call.deadlineNanos >= 0) {
                try {
                    expire(call);
                } catch (RuntimeException | Error e) {
                    // a callback of the failed call threw: the timer would log it; the other calls still expire
                    log.warn("A callback of timed-out call {} failed", call.id, e);
                }
            } else {
                lowerEarliest(call.deadlineNanos);
            }
        }
    }

    /** Removes and returns the call answered by a response with this id; null if it already ended. */
    public PendingCall take(long id) {
        PendingCall call = calls.remove(id);
        if (call != null) {
            ended(call);
        }
        return call;
    }

    /** Calls pending now (including reservations about to be sent). */
    public int size() {
        return count.get();
    }

    /** Fails every pending call: the connection closed with them in flight, so they may have run. */
    public void failAll(String why) {
        for (PendingCall call : calls.snapshot()) {
            call.fail(new TransportException(call.method.displayName() + " request " + call.id
                    + " failed: " + why + "; it may or may not have run on the provider"));
        }
    }

    /**
     * Runs {@code action} once, as soon as no call is pending (now, if none is), or after
     * {@code limitMillis} at the latest.
     */
    public void whenEmpty(Runnable action, long limitMillis) {
        whenEmpty.set(action);
        timer.newTimeout(t -> runWhenEmpty(), limitMillis, TimeUnit.MILLISECONDS);
        if (count.get() == 0) {
            runWhenEmpty();
        }
    }

    private void runWhenEmpty() {
        Runnable action = whenEmpty.getAndSet(null);
        if (action != null) {
            action.run();
        }
    }

    boolean remove(PendingCall call) {
        if (!calls.remove(call)) {
            return false;
        }
        ended(call);
        return true;
    }

    private void ended(PendingCall call) {
        call.ended = true;
        if (count.decrementAndGet() == 0 && whenEmpty.get() != null) {
            runWhenEmpty();
        }
    }

    private void expire(PendingCall call) {
        long elapsed = (System.nanoTime() - call.startNanos()) / 1_000_000;
        call.fail(new RpcTimeoutException(String.format(
                "%s timed out after %d ms (limit %d ms), request %d, %s; "
                        + "the provider may be overloaded or the timeout too small for this method",
                call.method.displayName(), elapsed, call.timeoutMillis, call.id, route.get())));
    }
}
