package io.kestrel.rpc.api.interceptor;

/**
 * Sees the messages and the end of one stream (a call of a streaming method, see {@code docs/streaming.md}), on
 * one side: an interceptor registers it with {@link CallInfo#addStreamListener} while it intercepts the call that
 * opens the stream, as a gRPC-java interceptor wraps its call's listener. Unary calls never see one.
 *
 * <p>Calls arrive on the threads that move the messages: {@link #onMessageSent} on the thread that called the
 * sending observer's {@code onNext}, {@link #onMessageReceived} on the thread delivering the message to the
 * receiving observer (just before it), {@link #onEnd} where the stream ended (the delivery thread, after the last
 * message delivered, on the consumer; on the provider the thread that completed, failed or cancelled it, or an
 * I/O thread). They must be short and must never block; the two message callbacks may run at the same time
 * (a bidirectional stream sends and receives at once). A listener that throws is logged (rate-limited) and the
 * stream goes on.
 */
public interface StreamListener {
    /** This side sent {@code message} (it was queued for the wire within the peer's credit). */
    default void onMessageSent(Object message) {
    }

    /** This side received {@code message}; its observer gets it next. */
    default void onMessageReceived(Object message) {
    }

    /**
     * The stream ended, once: {@code error} null when it completed normally, else why it did not
     * ({@link CallOutcome#of(Throwable)} names it: {@code cancelled}, {@code timeout}, {@code service_error}, ...).
     * No message callback follows.
     */
    default void onEnd(Throwable error) {
    }
}
