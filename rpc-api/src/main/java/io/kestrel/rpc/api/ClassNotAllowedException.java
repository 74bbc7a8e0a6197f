package io.kestrel.rpc.api;

/** A class named in a byte stream is not on the deserialization allowlist. It was refused before anything was instantiated; the message names the class and the setting that would allow it. */
public class ClassNotAllowedException extends SerializationException {
    private static final long serialVersionUID = 1L;

    public ClassNotAllowedException(String message) {
        super(message);
    }

    public ClassNotAllowedException(String message, Throwable cause) {
        super(message, cause);
    }
}
