package io.kestrel.rpc.api;

/**
 * A value could not be read because its class is not on the reading side's class path, although
 * the allowlist accepts it: the writer has a class (or a version of a jar) the reader lacks. The
 * fix is deploying the jar that holds {@link #className()} on the reading side.
 */
public class MissingClassException extends SerializationException {
    private static final long serialVersionUID = 1L;

    private final String className;

    public MissingClassException(String className, String message, Throwable cause) {
        super(message, cause);
        this.className = className;
    }

    /** The class the reader could not load. */
    public String className() {
        return className;
    }
}
