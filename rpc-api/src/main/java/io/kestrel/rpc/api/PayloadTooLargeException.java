package io.kestrel.rpc.api;

/** A frame body exceeds the configured payload limit. Raised before any buffer of that size is allocated; the message names the size and the limit. */
public class PayloadTooLargeException extends TransportException {
    private static final long serialVersionUID = 1L;

    public PayloadTooLargeException(String message) {
        super(message);
    }

    public PayloadTooLargeException(String message, Throwable cause) {
        super(message, cause);
    }
}
