package io.kestrel.rpc.api;

/**
 * The call was not sent: no connection to the provider (refused, closed, reconnecting) or the
 * consumer's cap on pending calls was reached. It cannot have run on the provider, so the failover
 * cluster retries it on another provider.
 */
public class ConnectionUnavailableException extends TransportException {
    private static final long serialVersionUID = 1L;

    public ConnectionUnavailableException(String message) {
        super(message);
    }

    public ConnectionUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
