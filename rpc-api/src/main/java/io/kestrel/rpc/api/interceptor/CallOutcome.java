package io.kestrel.rpc.api.interceptor;

import io.kestrel.rpc.api.BadRequestException;
import io.kestrel.rpc.api.NoProviderException;
import io.kestrel.rpc.api.PayloadTooLargeException;
import io.kestrel.rpc.api.RemoteInvocationException;
import io.kestrel.rpc.api.RpcException;
import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.ServerBusyException;
import io.kestrel.rpc.api.ServiceNotFoundException;
import io.kestrel.rpc.api.TransportException;
import io.kestrel.rpc.api.stream.StreamCancelledException;
import java.util.Locale;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * How a call ended, in a few stable values for logs, metric tags and span status; one vocabulary for
 * both sides. {@link #of(Throwable)} classifies a call's failure (null: {@link #OK}).
 */
public enum CallOutcome {
    OK,
    /** The service method threw (or an interceptor failed the call with a non-framework exception). */
    SERVICE_ERROR,
    /** The deadline passed: on the consumer's timer or on the provider before it ran. */
    TIMEOUT,
    /** The provider refused to run it (pool, limits such as {@code executes}/{@code actives}, shutting down). */
    SERVER_BUSY,
    /** The provider does not export the service or method. */
    SERVICE_NOT_FOUND,
    /** No provider was available to the consumer. */
    NO_PROVIDER,
    /** The provider refused the request (undecodable, not allowed, over a decode limit). */
    BAD_REQUEST,
    /** A value could not be written or read. */
    SERIALIZATION_ERROR,
    /** The request or the response exceeded a payload limit. */
    PAYLOAD_TOO_LARGE,
    /** The connection was unavailable or lost. */
    TRANSPORT_ERROR,
    /** An interceptor threw or returned null. */
    INTERCEPTOR_ERROR,
    /** A stream was cancelled: by either side, or by its connection closing on the provider. */
    CANCELLED,
    /** Any other framework failure. */
    ERROR;

    private final String tag = name().toLowerCase(Locale.ROOT);

    /** Lower-case name, for tags and logs ({@code ok}, {@code timeout}, ...). */
    public String tag() {
        return tag;
    }

    /**
     * The outcome of a call that ended with {@code failure} (null: {@link #OK}). Unwraps
     * {@link CompletionException} and {@link ExecutionException}.
     */
    public static CallOutcome of(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        if (t == null) {
            return OK;
        }
        if (!(t instanceof RpcException) || t instanceof RemoteInvocationException) {
            return SERVICE_ERROR;
        }
        if (t instanceof RpcTimeoutException) {
            return TIMEOUT;
        }
        if (t instanceof ServerBusyException) {
            return SERVER_BUSY;
        }
        if (t instanceof ServiceNotFoundException) {
            return SERVICE_NOT_FOUND;
        }
        if (t instanceof NoProviderException) {
            return NO_PROVIDER;
        }
        if (t instanceof BadRequestException) {
            return BAD_REQUEST;
        }
        if (t instanceof PayloadTooLargeException) {
            return PAYLOAD_TOO_LARGE;
        }
        if (t instanceof SerializationException) {
            return SERIALIZATION_ERROR;
        }
        if (t instanceof TransportException) {
            return TRANSPORT_ERROR;
        }
        if (t instanceof StreamCancelledException) {
            return CANCELLED;
        }
        if (t instanceof InterceptorException) {
            return INTERCEPTOR_ERROR;
        }
        return ERROR;
    }
}
