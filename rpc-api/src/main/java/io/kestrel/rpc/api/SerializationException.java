package io.kestrel.rpc.api;

/** Encoding or decoding a value failed, or a class was refused by the deserialization allowlist. */
public class SerializationException extends RpcException {
    private static final long serialVersionUID = 1L;

    public SerializationException(String message) {
        super(message);
    }

    public SerializationException(String message, Throwable cause) {
        super(message, cause);
    }
}
