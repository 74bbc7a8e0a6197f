package io.kestrel.rpc.transport.internal.stream;

import io.kestrel.rpc.api.interceptor.StreamListener;
import io.kestrel.rpc.api.internal.WarnWindows;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link StreamListener}s interceptors registered on one side of a stream, told of each message and, once, of
 * the end. A stream nobody listens to holds none and pays one volatile read per message. A listener that throws is
 * logged, at most once per listener class and {@value #WARN_INTERVAL_SECONDS} s, and the stream goes on.
 */
final class StreamListeners {
    private static final Logger log = LoggerFactory.getLogger(StreamListeners.class);
    static final int WARN_INTERVAL_SECONDS = 10;
    private static final WarnWindows WARNINGS = new WarnWindows(WARN_INTERVAL_SECONDS * 1_000_000_000L, 64);
    private static final StreamListener[] NONE = new StreamListener[0];

    private volatile StreamListener[] listeners = NONE;
    private boolean ended; // guarded by this

    /** Adds {@code listener}; one added after the end hears nothing. */
    synchronized void add(StreamListener listener) {
        if (listener == null) {
            throw new IllegalArgumentException("a stream listener must not be null");
        }
        if (ended) {
            return;
        }
        StreamListener[] more = Arrays.copyOf(listeners, listeners.length + 1);
        more[listeners.length] = listener;
        listeners = more;
    }

    void sent(Object message, StreamSide stream) {
        for (StreamListener l : listeners) {
            try {
                l.onMessageSent(message);
            } catch (RuntimeException e) {
                failed(l, "onMessageSent", stream, e);
            }
        }
    }

    void received(Object message, StreamSide stream) {
        for (StreamListener l : listeners) {
            try {
                l.onMessageReceived(message);
            } catch (RuntimeException e) {
                failed(l, "onMessageReceived", stream, e);
            }
        }
    }

    /** The stream ended with {@code error} (null: completed): every listener hears it once, then nothing more. */
    void ended(Throwable error, StreamSide stream) {
        StreamListener[] told;
        synchronized (this) {
            if (ended) {
                return;
            }
            ended = true;
            told = listeners;
            listeners = NONE;
        }
        for (StreamListener l : told) {
            try {
                l.onEnd(error);
            } catch (RuntimeException e) {
                failed(l, "onEnd", stream, e);
            }
        }
    }

    private static void failed(StreamListener l, String callback, StreamSide stream, RuntimeException e) {
        String note = WARNINGS.admit(l.getClass().getName(), System.nanoTime());
        if (note != null) {
            log.warn("stream listener {} threw in {} of {}; the stream goes on{}", l.getClass().getName(), callback,
                    stream.what(), note, e);
        }
    }
}
