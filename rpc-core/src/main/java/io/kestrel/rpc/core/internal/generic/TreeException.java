package io.kestrel.rpc.core.internal.generic;

/** A tree that does not fit its declared type, or a value that has no tree form; the message names the path. */
final class TreeException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    TreeException(Object path, String problem) {
        super("at " + path + ": " + problem);
    }
}
