package io.kestrel.rpc.transport.internal.stream;

import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.api.stream.StreamCancelledException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The credit a stream's sender holds: messages the receiver has granted and not yet received. The sender takes one
 * per message and waits while there is none (or while the connection takes no more bytes), at most until the
 * call's deadline; the receiver's WINDOW frames add to it. Thread-safe.
 */
final class SendWindow {
    /** How often a sender waiting for a connection that is not writable looks again. */
    private static final long WRITABLE_POLL_MILLIS = 1;

    private long credits;
    private String closedBecause;

    /** Adds credit (a WINDOW frame) and wakes a waiting sender. */
    synchronized void grant(int n) {
        credits = Math.min(Integer.MAX_VALUE, credits + n);
        notifyAll();
    }

    /** No message will be sent any more: a waiting sender stops waiting. */
    synchronized void close(String why) {
        if (closedBecause == null) {
            closedBecause = why;
        }
        notifyAll();
    }

    synchronized boolean ready() {
        return credits > 0 && closedBecause == null;
    }

    /**
     * Takes one credit, waiting for it.
     *
     * @param deadlineNanos when to stop waiting ({@link System#nanoTime()}), 0 for never
     * @param mayWait false on an I/O thread: no credit is then an {@link IllegalStateException}
     * @param writable whether the connection takes more bytes now
     * @param what the stream, for messages (named only when one is made: not per message)
     * @throws StreamCancelledException once the stream is closed
     * @throws RpcTimeoutException when the deadline passes first
     */
    synchronized void take(long deadlineNanos, boolean mayWait, BooleanSupplier writable, Supplier<String> what)
            throws InterruptedException {
        while (true) {
            if (closedBecause != null) {
                throw new StreamCancelledException(what.get() + " is over (" + closedBecause + "); the message was not sent");
            }
            boolean canWrite = writable.getAsBoolean();
            if (credits > 0 && canWrite) {
                credits--;
                return;
            }
            if (!mayWait) {
                throw new IllegalStateException(what.get() + " has " + (credits > 0 ? "a connection that takes no more"
                        + " bytes now" : "no credit from its receiver") + " and onNext was called on an I/O thread,"
                        + " which must not wait; check isReady() first, or send from another thread");
            }
            long waitMillis = canWrite ? 0 : WRITABLE_POLL_MILLIS;
            if (deadlineNanos != 0) {
                long left = (deadlineNanos - System.nanoTime()) / 1_000_000L;
                if (left <= 0) {
                    throw new RpcTimeoutException(what.get() + " passed its deadline while waiting to send ("
                            + (credits > 0 ? "the connection took no more bytes" : "the receiver granted no credit")
                            + "); the message was not sent");
                }
                waitMillis = waitMillis == 0 ? left : Math.min(waitMillis, left);
            }
            wait(waitMillis);
        }
    }
}
