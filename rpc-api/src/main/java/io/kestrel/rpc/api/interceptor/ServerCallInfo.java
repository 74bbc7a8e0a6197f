package io.kestrel.rpc.api.interceptor;

/** A call as a {@link ServerInterceptor} sees it on the provider. */
public interface ServerCallInfo extends CallInfo {
    /** The caller's timeout as sent with the request, in milliseconds; {@link #NO_DEADLINE} when it sent none. */
    long timeoutMillis();

    /**
     * What is left of the caller's timeout now, in milliseconds (0 or less once it has passed),
     * counted from when the request arrived; {@link #NO_DEADLINE} when the caller sent none. Outgoing
     * calls made while serving this call get at most this much (deadline propagation).
     */
    long remainingMillis();

    /** Bytes of the request frame's body (method reference, attachments and arguments). */
    int requestBytes();
}
