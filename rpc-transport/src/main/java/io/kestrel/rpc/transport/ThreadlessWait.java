package io.kestrel.rpc.transport;

import io.kestrel.rpc.api.RpcException;
import io.kestrel.rpc.transport.internal.PendingCall;
import java.util.ArrayDeque;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * A blocking caller's thread as the place its answers are decoded (the way Apache Dubbo's
 * {@code ThreadlessExecutor} serves synchronous calls). A call sent with its caller's wait
 * ({@link Connection#invoke(MethodRef, io.kestrel.rpc.api.serialization.Serializer, Object[], java.util.Map, int,
 * Class, java.util.function.BiConsumer, ThreadlessWait)}) is answered this way: the I/O thread matches the response
 * to the call and hands the frame over; the caller, parked in {@link #await}, wakes, decodes the value within the
 * same decode budget and the call's deadline, and completes the call itself. The I/O thread deserializes nothing
 * and completes nothing for it, and an answer costs one wake-up of the thread that waits for it anyway.
 *
 * <p>Hand-overs are taken only while the owner waits in {@link #await}: at any other moment (the caller is not
 * waiting yet, or gave up) the I/O thread decodes and completes the call itself, as for any other call, so an
 * answer never waits for a thread that does not come. Answers handed over and not run when the owner stops
 * waiting are run then if the wait ended with its future done, and otherwise (timeout, interrupt) released: their
 * frames and memory budget freed, their calls failed with an error that says the caller stopped waiting.
 *
 * <p>One per thread, reused by every blocking call it makes ({@link #forThisThread}); none on fork-join threads. Off with {@code -D}{@value #PROPERTY}{@code =false} (every answer then completes on the I/O
 * thread, as before). Thread-safe where it must be: {@link #handOver} is called by I/O threads.
 */
public final class ThreadlessWait {
    /** System property: {@code false} turns the caller-thread decoding of blocking calls' answers off. */
    public static final String PROPERTY = "kestrel.rpc.consumer.threadless";
    private static final boolean ENABLED = !"false".equalsIgnoreCase(System.getProperty(PROPERTY, "true").trim());
    private static final ThreadLocal<ThreadlessWait> MINE = ThreadLocal.withInitial(ThreadlessWait::new);

    private final Thread owner = Thread.currentThread();
    private final ArrayDeque<PendingCall> answers = new ArrayDeque<>(4); // guarded by this
    private boolean accepting; // guarded by this: the owner waits in await
    private int depth; // owner only: nested awaits (an answer run here that makes the thread wait again)

    private ThreadlessWait() {
    }

    /**
     * This thread's wait, or null where answers must not wait for it: turned off, or a fork-join worker (which
     * waits as a managed blocker elsewhere). Netty I/O threads never wait for a call (the proxy refuses).
     */
    public static ThreadlessWait forThisThread() {
        return ENABLED && !(Thread.currentThread() instanceof ForkJoinWorkerThread) ? MINE.get() : null;
    }

    /** Whether this thread owns it (an answer can only be run by its owner). */
    public boolean isCurrentThread() {
        return Thread.currentThread() == owner;
    }

    /**
     * On an I/O thread: hands {@code call}'s answer over (the call has left its table, {@link PendingCall#holdAnswer}
     * has the frame). False when the owner does not wait now: the I/O thread then completes the call itself.
     */
    public boolean handOver(PendingCall call) {
        synchronized (this) {
            if (!accepting) {
                return false;
            }
            answers.add(call);
        }
        LockSupport.unpark(owner);
        return true;
    }

    /**
     * Waits, on the owner thread, until {@code future} is done or {@code deadlineNanos} (on
     * {@link System#nanoTime()}'s clock) passes, decoding and completing the answers handed over meanwhile. Whoever
     * completes {@code future} must unpark this thread (as the call futures that use it do).
     *
     * @throws InterruptedException interrupted (the interrupt status is cleared)
     * @throws TimeoutException the deadline passed first
     */
    public void await(Future<?> future, long deadlineNanos) throws InterruptedException, TimeoutException {
        if (depth++ == 0) {
            synchronized (this) {
                accepting = true;
            }
        }
        boolean done = false;
        try {
            while (true) {
                runAnswers(future, deadlineNanos);
                if (future.isDone()) {
                    done = true;
                    return;
                }
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    throw new TimeoutException();
                }
                LockSupport.parkNanos(this, left);
            }
        } finally {
            if (--depth == 0) {
                stopAccepting(done);
            }
        }
    }

    /**
     * Runs the answers handed over so far, each completing its call here, until {@code future} is done or the
     * deadline passed (what is left then is for {@link #stopAccepting}).
     */
    private void runAnswers(Future<?> future, long deadlineNanos) {
        PendingCall call;
        while ((call = next()) != null) {
            call.decodeHeldAnswer();
            if (future.isDone() || System.nanoTime() - deadlineNanos >= 0) {
                return;
            }
        }
    }

    private synchronized PendingCall next() {
        return answers.poll();
    }

    /** No more hand-overs; what is left is run (the wait succeeded) or released (it did not). */
    private void stopAccepting(boolean done) {
        synchronized (this) {
            accepting = false;
        }
        PendingCall call;
        while ((call = next()) != null) {
            if (done) {
                call.decodeHeldAnswer();
            } else {
                call.dropHeldAnswer(new RpcException("the answer of " + call.method().displayName() + " (request "
                        + call.id() + ") arrived after its caller stopped waiting (timed out or interrupted);"
                        + " it was dropped unread"));
            }
        }
    }
}
