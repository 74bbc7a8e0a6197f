package io.kestrel.rpc.transport.internal.stream;

import io.kestrel.rpc.transport.internal.Frame;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A provider's idle timer on one stream with a request stream ({@code stream-idle-timeout}): when the consumer holds
 * credit and sends nothing, does not half-close and does not cancel for the timeout, the provider cancels the stream
 * with a reason naming the setting. Time the consumer spends without credit (the provider's observer is slow, or its
 * manual flow control requested nothing) does not count: the clock restarts once credit is back, seen within an
 * eighth of the timeout. One lazy check is scheduled at a time, on the connection's event loop, which is also where
 * the consumer's frames are seen, so the clock needs no locking. Stops at the consumer's half-close or the stream's
 * end.
 */
final class StreamIdleTimer implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(StreamIdleTimer.class);

    private final ServerStream stream;
    private final EventExecutor loop;
    private final long timeoutNanos;
    /** When the consumer last sent a frame or was last seen without credit (event loop only). */
    private long lastNanos;
    /** The last check found the consumer without credit (event loop only). */
    private boolean waitingForCredit;
    private volatile ScheduledFuture<?> check;
    private volatile boolean stopped;

    StreamIdleTimer(ServerStream stream, EventExecutor loop, long timeoutMillis) {
        this.stream = stream;
        this.loop = loop;
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    }

    /** Starts the clock (event loop, as the stream opens). */
    void start() {
        lastNanos = System.nanoTime();
        schedule(timeoutNanos);
    }

    /** A frame of the consumer on this stream (event loop): the clock restarts; a half-close stops it. */
    void consumerSent(Frame f) {
        lastNanos = f.receivedNanos(); // when it was read: no clock read per message
        if ((f.status & StreamFrames.HALF_CLOSE) != 0) {
            stop(); // the consumer sends no more: nothing to wait for
        }
    }

    /** The stream ended (any thread): no more checks (one scheduled meanwhile finds it stopped). */
    void stop() {
        stopped = true;
        ScheduledFuture<?> c = check;
        if (c != null) {
            c.cancel(false);
        }
    }

    @Override
    public void run() {
        check = null;
        if (stopped) {
            return;
        }
        long now = System.nanoTime();
        if (stream.receiveCredit.unreceived() <= 0) { // the consumer waits for us: not idle; look again soon
            waitingForCredit = true;
            lastNanos = now;
            schedule(Math.max(1, timeoutNanos / 8));
            return;
        }
        if (waitingForCredit) { // credit came back since the last look: the clock starts now
            waitingForCredit = false;
            lastNanos = now;
        }
        long idle = now - lastNanos;
        if (idle < timeoutNanos) {
            schedule(timeoutNanos - idle);
            return;
        }
        long timeoutMillis = TimeUnit.NANOSECONDS.toMillis(timeoutNanos);
        log.debug("Ending {}: its consumer was idle for {} ms (stream-idle-timeout)", stream.what(), timeoutMillis);
        stream.cancel("the consumer sent nothing, did not half-close and did not cancel for " + TimeUnit.NANOSECONDS
                .toMillis(idle) + " ms while it could send, over the provider's stream-idle-timeout of "
                + timeoutMillis + " ms (a setting of its protocol, 0 turns it off); send, half-close or cancel sooner");
    }

    private void schedule(long delayNanos) {
        if (!stopped) {
            check = loop.schedule(this, delayNanos, TimeUnit.NANOSECONDS);
        }
    }
}
