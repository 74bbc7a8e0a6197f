package io.kestrel.rpc.transport.spi;

import java.util.Map;

/** What the transport knows of a call a {@link ServerMethod} runs, besides its arguments. */
public interface IncomingCall {
    /** The attachments the consumer sent (read-only). */
    Map<String, String> attachments();

    /** The consumer's "host:port". */
    String remoteAddress();

    /** The caller's deadline on {@link System#nanoTime()}'s clock, 0 when it sent none. */
    long deadlineNanos();

    /** The caller's timeout as sent, in milliseconds; 0 when none. */
    int timeoutMillis();

    /** Bytes of the request frame's body. */
    int requestBytes();

    /** Name of the request's serialization. */
    String serialization();

    /**
     * Where the call puts the attachments of its answer (created on first use, thread-safe creation);
     * read once the result is complete.
     */
    Map<String, String> responseAttachments();

    /** {@link #responseAttachments()} as a supplier, without creating the map before it is needed. */
    java.util.function.Supplier<Map<String, String>> responseAttachmentsSupplier();

    /** The caller's verified identity (client certificate or token); null for an anonymous caller. */
    io.kestrel.rpc.api.security.CallerIdentity caller();

    /** For a call of a streaming method, the observer its answers go to (the method's last argument); else null. */
    default io.kestrel.rpc.api.stream.CallStreamObserver<Object> responseStream() {
        return null;
    }

    /**
     * For a call of a streaming method: {@code listener} sees the stream's messages and its end.
     *
     * @throws IllegalStateException for an ordinary call
     */
    default void addStreamListener(io.kestrel.rpc.api.interceptor.StreamListener listener) {
        throw new IllegalStateException("not a streaming call: it has no stream to listen to");
    }
}
