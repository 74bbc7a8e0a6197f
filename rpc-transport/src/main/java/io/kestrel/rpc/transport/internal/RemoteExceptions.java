package io.kestrel.rpc.transport.internal;

/**
 * Repairs what serializations lose of a provider's exception. Stateless.
 */
final class RemoteExceptions {
    private RemoteExceptions() {
    }

    /**
     * {@code t}, or a copy of it carrying {@code message} when its own message was lost on the way: a
     * JDK exception whose text is computed lazily (the JVM's helpful NullPointerException message is not
     * serialized) or that a serialization rebuilt without its message. The copy has the same type,
     * provider stack trace, cause and suppressed exceptions. Only JDK exceptions are copied, through
     * their public (String) constructor; others are returned as they are.
     */
    static Throwable withMessage(Throwable t, String message) {
        if (message == null || message.isEmpty() || message.equals(t.getMessage())
                || !t.getClass().getName().startsWith("java.")) {
            return t;
        }
        Throwable copy;
        try {
            copy = (Throwable) t.getClass().getConstructor(String.class).newInstance(message);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return t;
        }
        copy.setStackTrace(t.getStackTrace());
        if (t.getCause() != null && t.getCause() != t) {
            try {
                copy.initCause(t.getCause());
            } catch (IllegalStateException e) {
                // the constructor already set one
            }
        }
        for (Throwable s : t.getSuppressed()) {
            copy.addSuppressed(s);
        }
        return copy;
    }
}
