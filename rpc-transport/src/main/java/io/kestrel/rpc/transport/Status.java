package io.kestrel.rpc.transport;

import io.kestrel.rpc.api.BadRequestException;
import io.kestrel.rpc.api.PayloadTooLargeException;
import io.kestrel.rpc.api.PermissionDeniedException;
import io.kestrel.rpc.api.RpcException;
import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.ServerBusyException;
import io.kestrel.rpc.api.ServiceNotFoundException;
import io.kestrel.rpc.api.UnauthenticatedException;
import java.util.function.Function;

/**
 * The status byte of a response frame. Each status owns its wire code (Apache Dubbo's numbering
 * where Dubbo has the code; {@link #PAYLOAD_TOO_LARGE}, {@link #GOING_AWAY}, the caller statuses and TLS events are ours), what it
 * means for failover, and the exception the consumer raises for it. The provider picks a status for
 * a failure with {@link #ofRequestFailure}; the consumer turns a status back into an exception with
 * {@link #toException}; the consumer's failover rule (in rpc-core) reads {@link #retry()} of the status a
 * failure was raised for.
 */
public enum Status {
    OK(20, Retry.NEVER, null, null),
    /** The call waited for a business thread beyond its caller's timeout and was dropped unrun. */
    SERVER_TIMEOUT(31, Retry.IF_IDEMPOTENT, RpcTimeoutException.class, RpcTimeoutException::new),
    /** The request could not be decoded or is not allowed: a bad frame body, argument or class. */
    BAD_REQUEST(40, Retry.NEVER, BadRequestException.class, BadRequestException::new),
    /**
     * The service admits only known callers and this connection proved no identity (no client
     * certificate, no token, or a rejected token): the call did not run. Retrying elsewhere does not help.
     */
    UNAUTHENTICATED(41, Retry.NEVER, UnauthenticatedException.class, UnauthenticatedException::new),
    /** The caller is known and not among the service's allowed principals or roles: the call did not run. */
    PERMISSION_DENIED(42, Retry.NEVER, PermissionDeniedException.class, PermissionDeniedException::new),
    /** The provider ran the call but could not serialize its result. */
    BAD_RESPONSE(50, Retry.NEVER, SerializationException.class, SerializationException::new),
    /** The provider does not export this service or method: the call did not run. */
    SERVICE_NOT_FOUND(60, Retry.SAFE, ServiceNotFoundException.class, ServiceNotFoundException::new),
    /** The service method threw; the body carries the exception. */
    SERVICE_ERROR(70, Retry.NEVER, null, null),
    /** The provider failed unexpectedly while serving the call. */
    SERVER_ERROR(80, Retry.NEVER, RpcException.class, m -> new RpcException("provider answered SERVER_ERROR: " + m)),
    /** Business pool and queue full, or the provider is shutting down: the call did not run. */
    SERVER_BUSY(100, Retry.SAFE, ServerBusyException.class, ServerBusyException::new),
    /** The request or the response body exceeds a payload limit; the call did not complete. */
    PAYLOAD_TOO_LARGE(110, Retry.NEVER, PayloadTooLargeException.class, PayloadTooLargeException::new),
    /**
     * On an event frame from the provider: it is shutting down, send nothing more on this connection.
     * The consumer answers with an event frame carrying the same status once it has stopped sending.
     */
    GOING_AWAY(120, Retry.NEVER, null, null),
    /**
     * On a one-way event frame from the consumer, once per connection right after the TLS handshake
     * and before any call: the body is the consumer's token (UTF-8), for the provider's authenticator.
     */
    CREDENTIAL(121, Retry.NEVER, null, null),
    /**
     * On an event frame from a provider, sent in plaintext before it closes the connection: the
     * consumer spoke plaintext to a TLS port, or TLS to a plaintext one. The body says which (UTF-8).
     */
    TLS_MISMATCH(122, Retry.NEVER, null, null);

    /** What failover may do with a call that failed this way. */
    public enum Retry {
        /** The call certainly did not run on the provider: safe to send it to another one. */
        SAFE,
        /** The call may have run: sent again only for references marked idempotent. */
        IF_IDEMPOTENT,
        /** The call ran (and failed), or sending it again cannot help. */
        NEVER
    }

    private static final Status[] BY_CODE = new Status[128];

    static {
        for (Status s : values()) {
            BY_CODE[s.code] = s;
        }
    }

    private final byte code;
    private final Retry retry;
    private final Class<? extends RpcException> exceptionType;
    private final Function<String, RpcException> exception;

    Status(int code, Retry retry, Class<? extends RpcException> exceptionType, Function<String, RpcException> exception) {
        this.code = (byte) code;
        this.retry = retry;
        this.exceptionType = exceptionType;
        this.exception = exception;
    }

    /** The byte on the wire. */
    public byte code() {
        return code;
    }

    /** What failover may do after a response with this status. */
    public Retry retry() {
        return retry;
    }

    /** The status with this wire code, or null for a code this side does not know. */
    public static Status of(byte code) {
        return code >= 0 ? BY_CODE[code] : null;
    }

    /** A readable name for any code, including unknown ones. */
    public static String name(byte code) {
        Status s = of(code);
        return s != null ? s.name() : "UNKNOWN(" + code + ")";
    }

    /**
     * The consumer's exception for an error response with this code and message. Unknown codes
     * become a plain {@link RpcException} naming the code.
     */
    public static RpcException toException(byte code, String message) {
        Status s = of(code);
        if (s == null || s.exception == null) {
            return new RpcException("provider answered " + name(code) + ": " + message);
        }
        return s.exception.apply(message);
    }

    /** The status a provider answers with when a request fails before its method ran. */
    public static Status ofRequestFailure(Throwable failure) {
        if (failure instanceof ServiceNotFoundException) {
            return SERVICE_NOT_FOUND;
        }
        if (failure instanceof PayloadTooLargeException) {
            return PAYLOAD_TOO_LARGE;
        }
        if (failure instanceof ServerBusyException) {
            return SERVER_BUSY;
        }
        if (failure instanceof UnauthenticatedException) {
            return UNAUTHENTICATED;
        }
        if (failure instanceof PermissionDeniedException) {
            return PERMISSION_DENIED;
        }
        return BAD_REQUEST;
    }

    /**
     * The exception the consumer raises for this status ({@link #toException}); null for statuses that raise
     * none (OK, the service's own exception, events). The failover rule reads it to give a failure its
     * status's {@link #retry()}.
     */
    public Class<? extends RpcException> exceptionType() {
        return exceptionType;
    }
}
