package io.kestrel.rpc.api.interceptor;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link StreamListener} that counts the stream's messages, for listeners that report them at the end (a log line,
 * span attributes): override {@link #onEnd} and read {@link #sent()} and {@link #received()} there.
 */
public abstract class CountingStreamListener implements StreamListener {
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong received = new AtomicLong();

    @Override
    public final void onMessageSent(Object message) {
        sent.incrementAndGet();
    }

    @Override
    public final void onMessageReceived(Object message) {
        received.incrementAndGet();
    }

    /** Messages this side sent so far. */
    public final long sent() {
        return sent.get();
    }

    /** Messages this side received so far. */
    public final long received() {
        return received.get();
    }

    @Override
    public abstract void onEnd(Throwable error);
}
