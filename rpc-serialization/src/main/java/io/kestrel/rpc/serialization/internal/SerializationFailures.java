package io.kestrel.rpc.serialization.internal;

import io.kestrel.rpc.api.ClassNotAllowedException;
import io.kestrel.rpc.api.DecodeLimitException;
import io.kestrel.rpc.api.MissingClassException;
import io.kestrel.rpc.api.SerializationException;

/**
 * Turns whatever an engine threw into the framework's exceptions: an allowlist refusal anywhere in
 * the cause chain is rethrown as that {@link ClassNotAllowedException} (engines like to wrap it),
 * everything else becomes a {@link SerializationException} naming the serializer, the direction and
 * the engine's reason, with the original as cause. A {@link DecodeLimitException} anywhere in the chain
 * is reported as such, its message prefixed with the serializer. Not part of the public API.
 */
public final class SerializationFailures {
    private SerializationFailures() {
    }

    /** A failure while reading a value of (declared) type {@code expectedType}. */
    public static SerializationException decodeFailed(String serializer, Class<?> expectedType, Throwable e) {
        ClassNotAllowedException refusal = findRefusal(e);
        if (refusal != null) {
            return refusal;
        }
        DecodeLimitException limit = findLimit(e);
        if (limit != null) {
            return new DecodeLimitException(limit.limit(), serializer + " could not deserialize a value (expected type "
                    + (expectedType == null ? "unknown" : expectedType.getName()) + "): " + limit.getMessage(), limit);
        }
        String missing = findMissingClass(e);
        if (missing != null) {
            return new MissingClassException(missing, serializer + " could not deserialize a value (expected type "
                    + (expectedType == null ? "unknown" : expectedType.getName()) + "): class " + missing
                    + " is allowed but not on this side's class path (the writer has it). Deploy the jar that holds "
                    + missing + " here too, or send only types both sides have", e);
        }
        return new SerializationException(serializer + " could not deserialize a value (expected type "
                + (expectedType == null ? "unknown" : expectedType.getName()) + "): " + reason(e)
                + ". The bytes are corrupt or truncated, or were written by another serializer or an incompatible "
                + "version of the class", e);
    }

    /**
     * A failure of a format that writes registered classes as numbers (kryo, fst, fory): the message also
     * says which classes this side registers ({@code registration}, from
     * {@link io.kestrel.rpc.api.serialization.SerializationOptions#registrationDescription()}), since two
     * sides that register different classes, or the same in another order, read each other's numbers as
     * the wrong classes; an unregistered class number is named as such. An allowlist refusal keeps its own
     * message plus that hint when this side registers classes (a mismatch can make the reader take a piece
     * of string data for a class name).
     */
    public static SerializationException decodeFailed(String serializer, Class<?> expectedType, Throwable e,
            String registration, boolean registersClasses) {
        ClassNotAllowedException refusal = findRefusal(e);
        if (refusal != null) {
            if (registersClasses) {
                return new ClassNotAllowedException(refusal.getMessage() + ". If that name looks like a piece of"
                        + " your data rather than a class, the two sides register different classes or in another"
                        + " order: " + hint(registration), refusal);
            }
            return refusal;
        }
        if (findLimit(e) != null || findMissingClass(e) != null) {
            return decodeFailed(serializer, expectedType, e);
        }
        String reason = reason(e);
        String lead = unregisteredNumber(reason)
                ? ". The writer sent a class number this side has not registered: the two sides register different"
                        + " classes or in another order"
                : ". The bytes are corrupt or truncated, were written by another serializer or an incompatible"
                        + " version of the class, or the two sides register different classes or in another order";
        return new SerializationException(serializer + " could not deserialize a value (expected type "
                + (expectedType == null ? "unknown" : expectedType.getName()) + "): " + reason + lead + ": "
                + hint(registration), e);
    }

    private static boolean unregisteredNumber(String reason) {
        return reason.contains("unregistered class ID") || reason.contains("unable to find class for code");
    }

    private static String hint(String registration) {
        return "this side has " + registration + ". Both sides must register the same classes in the same order:"
                + " configure the same optimizer (optimizer= on <rpc:protocol>, or on <rpc:reference>); a reference"
                + " that sets neither serialization nor optimizer adopts its provider's";
    }

    /** A failure while writing {@code value}. */
    public static SerializationException encodeFailed(String serializer, Object value, Throwable e) {
        ClassNotAllowedException refusal = findRefusal(e);
        if (refusal != null) {
            return refusal;
        }
        return new SerializationException(serializer + " could not serialize a value of type "
                + (value == null ? "null" : value.getClass().getName()) + ": " + reason(e), e);
    }

    /** The first {@link ClassNotAllowedException} in the cause chain, or null. */
    public static ClassNotAllowedException findRefusal(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ClassNotAllowedException c) {
                return c;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return null;
    }

    /**
     * The class name of the first {@link ClassNotFoundException} or {@link NoClassDefFoundError} in the
     * cause chain, or null (also when its message is not a class name).
     */
    public static String findMissingClass(Throwable e) {
        int guard = 0;
        for (Throwable t = e; t != null && guard++ < 50; t = t.getCause()) {
            if ((t instanceof ClassNotFoundException || t instanceof NoClassDefFoundError) && t.getMessage() != null) {
                String name = t.getMessage().trim().replace('/', '.');
                return name.matches("[\\w$.\\[;]+") ? name : null;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return null;
    }

    /** The first {@link DecodeLimitException} in the cause chain, or null. */
    public static DecodeLimitException findLimit(Throwable e) {
        int guard = 0;
        for (Throwable t = e; t != null && guard++ < 50; t = t.getCause()) {
            if (t instanceof DecodeLimitException d) {
                return d;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return null;
    }

    private static String reason(Throwable e) {
        // The innermost message is usually the engine's actual complaint.
        Throwable root = e;
        int guard = 0;
        while (root.getCause() != null && root.getCause() != root && guard++ < 20) {
            root = root.getCause();
        }
        String outer = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " '" + shorten(e.getMessage()) + "'");
        if (root == e) {
            return outer;
        }
        return outer + ", caused by " + root.getClass().getSimpleName()
                + (root.getMessage() == null ? "" : " '" + shorten(root.getMessage()) + "'");
    }

    private static String shorten(String s) {
        return s.length() <= 300 ? s : s.substring(0, 300) + "...";
    }
}
