package io.kestrel.rpc.serialization.internal;

import java.util.Map;

/** Class lookup by name without initialization, primitives included. Not part of the public API. */
public final class ClassNames {
    private static final Map<String, Class<?>> PRIMITIVES = Map.of(
            "boolean", boolean.class, "byte", byte.class, "char", char.class, "short", short.class,
            "int", int.class, "long", long.class, "float", float.class, "double", double.class, "void", void.class);

    private ClassNames() {
    }

    /** Loads (never initializes) a class; call only after the allowlist accepted the name. */
    public static Class<?> forName(String name, ClassLoader loader) throws ClassNotFoundException {
        Class<?> primitive = PRIMITIVES.get(name);
        return primitive != null ? primitive : Class.forName(name, false, loader);
    }
}
