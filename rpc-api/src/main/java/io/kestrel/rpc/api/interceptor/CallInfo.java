package io.kestrel.rpc.api.interceptor;

import io.kestrel.rpc.api.ServiceKey;
import java.lang.reflect.Method;
import java.util.Map;

/**
 * One call as an interceptor sees it, on either side. One instance per call, used by one chain;
 * not thread-safe (an interceptor that hands it to another thread publishes it through the call's
 * future, which orders the accesses).
 *
 * @see ClientCallInfo
 * @see ServerCallInfo
 */
public interface CallInfo {
    /** No deadline: what {@link ClientCallInfo#timeoutMillis()} and {@link ServerCallInfo#remainingMillis()} return then. */
    long NO_DEADLINE = Long.MAX_VALUE;

    /** The service: interface name, version and group. */
    ServiceKey service();

    /** The interface method called (as declared on the service interface, never the implementation's). */
    Method method();

    /** The method's name; {@code method().getName()}. */
    default String methodName() {
        return method().getName();
    }

    /** {@code service#method}, as the framework's messages and logs name a call. */
    default String displayName() {
        return service() + "#" + methodName();
    }

    /**
     * The arguments, one per declared parameter (an empty array for none). The array itself: an
     * interceptor may replace an element before it proceeds, which the next one and the call see.
     */
    Object[] arguments();

    /**
     * Attachments of the request. On the consumer: modifiable until the interceptor proceeds; what it
     * holds then is sent. On the provider: what the consumer sent, read-only.
     */
    Map<String, String> requestAttachments();

    /**
     * Attachments of the response. On the provider: modifiable until the call's future completes; what
     * it holds then is sent back with an answer that carries a value (not with an exception), together
     * with what the service set through {@link io.kestrel.rpc.api.RpcContext#setResponseAttachment}
     * (the same map; no null keys or values). On the consumer: read-only, empty until the future
     * returned by {@code proceed()} completes with a value, then what the provider sent.
     */
    Map<String, String> responseAttachments();

    /** Name of the serialization of the call's frames ({@code fory}, {@code kryo}, ...). */
    String serialization();

    /**
     * The other side's "host:port". On the provider: the consumer's. On the consumer: the provider the
     * last attempt was sent to, or null before one was chosen (interceptors run before the cluster
     * picks a provider; read it when the call's future has completed).
     */
    String peerAddress();

    /**
     * True for the call that opens a stream (a streaming method's call): it ends when the stream ends, and
     * {@link #addStreamListener} sees its messages. False for an ordinary call.
     */
    default boolean isStream() {
        return false;
    }

    /**
     * Lets {@code listener} see this stream's messages (both directions) and its end. Register it before
     * proceeding to see every message. On the consumer, the future {@code proceed()} returns completes when the
     * stream ended; on the provider it completes when the streaming method returned (with the observer of its
     * request stream, for a bidirectional or client-streaming method), while the stream may go on: its end reaches
     * {@link StreamListener#onEnd}.
     *
     * @throws IllegalStateException when this call is not a stream ({@link #isStream()} false)
     */
    default void addStreamListener(StreamListener listener) {
        throw new IllegalStateException(displayName() + " is not a streaming call: it has no stream to listen to");
    }
}
