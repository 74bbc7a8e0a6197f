package io.kestrel.rpc.api.serialization;

import io.kestrel.rpc.api.ClassNotAllowedException;

/**
 * Bounds on the class names a byte stream may make a serializer look up, checked by
 * {@link ClassAllowlist} before the allowlist itself, so before anything is loaded or cached. A name
 * costs memory wherever an engine caches by name, and an array type loads one class per dimension
 * (never unloaded): without bounds a few requests naming distinct deep array types fill the metaspace
 * or the heap. A name over a limit is refused with {@link ClassNotAllowedException}, naming the limit
 * and the setting that raises it.
 * <ul>
 *   <li>{@value #MAX_CLASS_NAME_CHARS_PROPERTY} (default {@value #DEFAULT_MAX_CLASS_NAME_CHARS}): the
 *       longest class name, array brackets included.</li>
 *   <li>{@value #MAX_ARRAY_DIMENSIONS_PROPERTY} (default {@value #DEFAULT_MAX_ARRAY_DIMENSIONS}): the most
 *       dimensions of an array type ({@code int[][]} has 2).</li>
 *   <li>{@value #NAME_CACHE_SIZE_PROPERTY} (default {@value #DEFAULT_NAME_CACHE_SIZE}): the most entries of
 *       each cache the framework keeps by a name read from a stream (the allowlist's decisions, hessian2's
 *       array deserializers); a full cache starts over.</li>
 * </ul>
 * Each is read once from its system property when this class loads. Thread-safe.
 */
public final class TypeNameLimits {
    public static final String MAX_CLASS_NAME_CHARS_PROPERTY = "kestrel.rpc.serialization.maxClassNameChars";
    public static final String MAX_ARRAY_DIMENSIONS_PROPERTY = "kestrel.rpc.serialization.maxArrayDimensions";
    public static final String NAME_CACHE_SIZE_PROPERTY = "kestrel.rpc.serialization.nameCacheSize";
    public static final int DEFAULT_MAX_CLASS_NAME_CHARS = 1024;
    public static final int DEFAULT_MAX_ARRAY_DIMENSIONS = 8;
    public static final int DEFAULT_NAME_CACHE_SIZE = 4096;

    private static final int MAX_CHARS = read(MAX_CLASS_NAME_CHARS_PROPERTY, DEFAULT_MAX_CLASS_NAME_CHARS, 64);
    private static final int MAX_DIMENSIONS = read(MAX_ARRAY_DIMENSIONS_PROPERTY, DEFAULT_MAX_ARRAY_DIMENSIONS, 1);
    private static final int CACHE_SIZE = read(NAME_CACHE_SIZE_PROPERTY, DEFAULT_NAME_CACHE_SIZE, 16);
    /** How much of a refused name a message quotes. */
    private static final int QUOTED_CHARS = 120;

    private TypeNameLimits() {
    }

    /** The longest class name accepted. */
    public static int maxClassNameChars() {
        return MAX_CHARS;
    }

    /** The most dimensions of an array type accepted. */
    public static int maxArrayDimensions() {
        return MAX_DIMENSIONS;
    }

    /** The capacity of each cache keyed by names read from a stream. */
    public static int nameCacheSize() {
        return CACHE_SIZE;
    }

    /** Dimensions of an array type name, counted as its leading '[' (JVM, hessian and fastjson2 forms). */
    public static int dimensions(String name) {
        int i = 0;
        while (i < name.length() && name.charAt(i) == '[') {
            i++;
        }
        return i;
    }

    /** Whether {@code name} is within both limits. */
    public static boolean accepts(String name) {
        return name.length() <= MAX_CHARS && dimensions(name) <= MAX_DIMENSIONS;
    }

    /**
     * Throws unless {@code name} is within both limits.
     *
     * @throws ClassNotAllowedException naming the limit, its setting and (the start of) the name
     */
    public static void check(String name) {
        ClassNotAllowedException e = refusal(name);
        if (e != null) {
            throw e;
        }
    }

    /** The refusal of a name over a limit, or null when it is within both. */
    static ClassNotAllowedException refusal(String name) {
        if (name.length() > MAX_CHARS) {
            return new ClassNotAllowedException("Refused to deserialize class " + quote(name) + ": its name has "
                    + name.length() + " characters, more than the limit of " + MAX_CHARS + "; nothing was loaded. If"
                    + " such names are legitimate, raise it with -D" + MAX_CLASS_NAME_CHARS_PROPERTY + "=<n>");
        }
        int dimensions = dimensions(name);
        if (dimensions > MAX_DIMENSIONS) {
            return new ClassNotAllowedException("Refused to deserialize class " + quote(name) + ": an array type of "
                    + dimensions + " dimensions, more than the limit of " + MAX_DIMENSIONS + "; nothing was loaded. If"
                    + " such arrays are legitimate, raise it with -D" + MAX_ARRAY_DIMENSIONS_PROPERTY + "=<n>");
        }
        return null;
    }

    /** The name, or its start and length when long: a refusal never echoes a caller's name unbounded. */
    static String quote(String name) {
        return name.length() <= QUOTED_CHARS ? name
                : name.substring(0, QUOTED_CHARS) + "...(" + name.length() + " characters)";
    }

    private static int read(String property, int fallback, int min) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(value.trim());
            if (n >= min) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException("-D" + property + "=" + value + " is not a whole number >= " + min
                + " (default " + fallback + ")");
    }
}
