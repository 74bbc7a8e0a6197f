package io.kestrel.rpc.transport.internal.stream;

import io.kestrel.rpc.api.stream.StreamLimits;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * The credit a stream's receiving side grants its peer, and what it counts to enforce it. Automatic (the default):
 * the whole window once the stream opens, then back what the observer took, half the window at a time, and with it
 * a wider window while the messages are small ({@link StreamLimits#windowBytes()}). Manual
 * ({@link #disableAutoRequest}): what the observer {@link #request requested}, at most the window undelivered, in
 * steps of at least half the window. A message arriving without credit ({@link #receive} false) breaks the rules.
 * Each method returns the credit to grant now (0: none), which the caller sends in a WINDOW frame.
 */
final class ReceiveCredit {
    /**
     * Messages the peer may have in flight: {@link StreamLimits#window()}, widened under automatic flow control (the
     * delivery thread writes it; the event loop reads it for messages).
     */
    private volatile int window;
    /** The window a stream starts at, and the narrowest it gets back to. */
    private final int base;
    private final int windowBytes;
    /** Whether unary calls wait behind this stream's messages now (asked at each automatic grant). */
    private final BooleanSupplier othersWaiting;
    /**
     * Messages granted and not yet received: a message arriving when none is left breaks the rules. So at most
     * {@link #window} messages wait for the observer.
     */
    private final AtomicInteger unreceived = new AtomicInteger();
    /**
     * Manual flow control: credit follows {@link #request}. Written under this lock before the stream opens, so a
     * message (which needs credit, granted only once open) is always delivered after the write is visible.
     */
    private volatile boolean manual;
    /** Credit may be granted: the stream opened (guarded by this). */
    private boolean open;
    /** Manual: messages requested and not yet delivered (guarded by this). */
    private long demand;
    /** Manual: credit granted and not yet delivered; at most min(demand, window) (guarded by this). */
    private long granted;
    /** Automatic: taken since credit was last granted back (delivery thread only). */
    private int takenSinceGrant;
    /** Automatic: the body bytes of those messages (delivery thread only). */
    private long bytesSinceGrant;

    ReceiveCredit(BooleanSupplier othersWaiting) {
        this(StreamLimits.window(), StreamLimits.windowBytes(), othersWaiting);
    }

    /**
     * @param windowBytes the bytes in flight a window widens toward; 0: it stays at {@code window}
     * @param othersWaiting true while unary calls on the same connection wait for answers: then a widened window
     *     narrows back toward {@code window}, halving at each grant, so the stream's messages in flight in front of
     *     those answers are few again
     */
    ReceiveCredit(int window, int windowBytes, BooleanSupplier othersWaiting) {
        this.window = window;
        this.base = window;
        this.windowBytes = windowBytes;
        this.othersWaiting = othersWaiting;
    }

    /** Messages the peer may have in flight now. */
    int window() {
        return window;
    }

    /** A message arrived (event loop): false when the peer had no credit left for it. */
    boolean receive() {
        return unreceived.decrementAndGet() >= 0;
    }

    /** Messages granted and not yet received (0 or less: the peer has no credit and must wait for us). */
    int unreceived() {
        return unreceived.get();
    }

    /** {@code credits} are being granted to the peer (before its WINDOW frame is sent). */
    void granting(int credits) {
        unreceived.addAndGet(credits);
    }

    /** The automatic initial window, granted now: the stream opened. */
    int openAutomatic() {
        synchronized (this) {
            open = true;
        }
        granting(window);
        return window;
    }

    /**
     * The stream opened: under manual flow control opens grants and returns what was requested so far (0: nothing);
     * -1 when automatic (the caller grants {@link #openAutomatic}).
     */
    synchronized int openManual() {
        if (!manual) {
            return -1;
        }
        open = true;
        return topUp();
    }

    /** @return false when credit was granted already (too late to switch to manual) */
    synchronized boolean disableAutoRequest() {
        if (open) {
            return false;
        }
        manual = true;
        return true;
    }

    /** The observer requested {@code n} more messages: the credit to grant now. */
    synchronized int request(long n) {
        if (!manual) {
            return 0;
        }
        demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
        return open ? topUp() : 0;
    }

    /**
     * A message is being delivered (delivery thread, before the observer's onNext, so a request(1) made inside it
     * is granted at once).
     *
     * @return whether flow control is manual (pass it to {@link #delivered})
     */
    boolean delivering() {
        if (!manual) {
            return false;
        }
        synchronized (this) {
            demand--;
            granted--;
        }
        return true;
    }

    /**
     * The observer took a message of {@code bytes} body bytes ({@code manual} from {@link #delivering}): the credit to
     * grant back now.
     */
    int delivered(boolean manualNow, int bytes) {
        if (manualNow) {
            synchronized (this) {
                return topUp();
            }
        }
        bytesSinceGrant += bytes;
        int w = window;
        if (++takenSinceGrant >= Math.max(1, w / 2)) {
            int next = nextWindow(w, bytesSinceGrant / takenSinceGrant);
            // what the peer may have in flight becomes `next`: w - taken before this grant, plus the grant
            int grant = takenSinceGrant + next - w;
            window = next;
            takenSinceGrant = 0;
            bytesSinceGrant = 0;
            return grant; // >= 0: next >= w / 2 and taken >= w / 2
        }
        return 0;
    }

    /**
     * Automatic: the window from this grant on. While unary calls wait on the connection, a widened window halves
     * back toward {@link #base}; otherwise, when the peer has used more than three quarters of it (the window is what
     * holds the peer back), it widens toward {@link #windowBytes} of messages of {@code averageBytes}, at most
     * doubling, at most {@link StreamLimits#MAX_GROWN_WINDOW}.
     */
    private int nextWindow(int w, long averageBytes) {
        if (windowBytes == 0) {
            return w;
        }
        if (othersWaiting.getAsBoolean()) {
            return Math.max(base, w / 2);
        }
        if (unreceived.get() > w / 4) {
            return w; // the peer does not use the window it has (a ping-pong, a slow producer): wider buys nothing
        }
        long fits = windowBytes / Math.max(1, averageBytes);
        int wider = (int) Math.min(Math.min(fits, 2L * w), StreamLimits.MAX_GROWN_WINDOW);
        return Math.max(w, wider);
    }

    /**
     * Manual flow control: the credit to grant now so that what is granted and undelivered reaches min(demand,
     * window); granted in steps of at least half a window unless nothing is granted (guarded by this).
     */
    private int topUp() {
        long want = Math.min(demand, window) - granted;
        if (want <= 0 || (granted > 0 && want < Math.max(1, window / 2))) {
            return 0;
        }
        granted += want;
        return (int) want;
    }
}
