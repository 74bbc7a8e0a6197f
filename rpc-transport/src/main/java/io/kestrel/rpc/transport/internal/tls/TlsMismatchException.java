package io.kestrel.rpc.transport.internal.tls;

/**
 * The peer speaks plaintext where this side expects TLS, or the reverse. Raised on the consumer's
 * pipeline (where it becomes the connection's last error, which failed calls quote) and closes the
 * connection.
 */
public final class TlsMismatchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public TlsMismatchException(String message) {
        super(message, null, false, false);
    }
}
