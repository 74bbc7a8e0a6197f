package io.kestrel.rpc.spring.internal;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Objects;

/** Field-by-field comparison of two config objects of rpc-api (or rpc-console), naming the first field that differs. */
final class ConfigFields {
    private ConfigFields() {
    }

    /** Null when {@code a} and {@code b} hold the same values, else {@code path: a-value vs b-value}. */
    static String difference(Object a, Object b) {
        return difference("", a, b);
    }

    private static String difference(String path, Object a, Object b) {
        if (a == null || b == null || a.getClass() != b.getClass() || !isConfig(a.getClass())) {
            return Objects.equals(a, b) ? null : (path.isEmpty() ? "the value" : path) + ": " + a + " vs " + b;
        }
        for (Class<?> c = a.getClass(); c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers())) {
                    continue;
                }
                f.setAccessible(true);
                try {
                    String d = difference(path + (path.isEmpty() ? "" : ".") + f.getName(), f.get(a), f.get(b));
                    if (d != null) {
                        return d;
                    }
                } catch (IllegalAccessException e) {
                    throw new AssertionError(e);
                }
            }
        }
        return null;
    }

    private static boolean isConfig(Class<?> c) {
        String p = c.getPackageName();
        return (p.startsWith("io.kestrel.rpc.api") || p.equals("io.kestrel.rpc.console")) && !c.isEnum() && !c.isRecord();
    }
}
