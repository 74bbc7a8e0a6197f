package io.kestrel.rpc.api;

/** The connection failed: connect refused, connection closed with calls in flight, frame too large, malformed frame. */
public class TransportException extends RpcException {
    private static final long serialVersionUID = 1L;

    public TransportException(String message) {
        super(message);
    }

    public TransportException(String message, Throwable cause) {
        super(message, cause);
    }
}
