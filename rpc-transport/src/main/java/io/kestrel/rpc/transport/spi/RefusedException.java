package io.kestrel.rpc.transport.spi;

import io.kestrel.rpc.api.RpcException;
import io.kestrel.rpc.transport.Status;

/**
 * Thrown by (or failing the result of) {@link ServerMethod#invoke} to answer the call with
 * {@link #status()} and the message instead of as an exception the service threw: a limit refused to
 * run it ({@link Status#SERVER_BUSY}, which failover may retry), or the provider failed around the
 * service ({@link Status#SERVER_ERROR}).
 */
public final class RefusedException extends RpcException {
    private static final long serialVersionUID = 1L;
    private final transient Status status;

    public RefusedException(Status status, String message, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    /** The status to answer with. */
    public Status status() {
        return status;
    }
}
