package io.kestrel.rpc.core.internal.generic;

import java.lang.reflect.Array;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Converts a value to a plain tree: beans and records to maps of their properties (null properties left
 * out), collections, arrays and iterables to lists, maps to maps with string keys (enum keys by name, others
 * by {@code toString()}), enums to their names, dates and times to ISO-8601 strings ({@code Date} as an
 * {@code Instant}), {@code byte[]} to Base64, {@code char[]} and {@code Character} to strings, Optional to its
 * value or null, other JDK values (UUID, URI, Locale, ...) to {@code toString()}, exceptions to a map of
 * {@code type} and {@code message}. A value that contains itself is refused, naming the path. Thread-safe.
 */
final class TreeWriter {
    private TreeWriter() {
    }

    /**
     * The tree of {@code value}, within the default limits ({@link TreeWalk#unbounded()}).
     *
     * @throws IllegalArgumentException when the value contains a cycle, is larger or deeper than the limits,
     *     or a property cannot be read
     */
    public static Object write(Object value) {
        return write(value, TreeWalk.unbounded());
    }

    /** As {@link #write(Object)}, counting the nodes written in {@code walk}, within its limits and deadline. */
    public static Object write(Object value, TreeWalk walk) {
        return write(value, TreePath.root("result"), walk);
    }

    private static Object write(Object value, TreePath path, TreeWalk walk) {
        walk.visit(path);
        if (value == null || value instanceof String || value instanceof Boolean || PlainTree.isNumber(value)) {
            return value;
        }
        if (value instanceof AtomicInteger || value instanceof AtomicLong) {
            return ((Number) value).longValue();
        }
        if (value instanceof Number || value instanceof Character) {
            return value.toString();
        }
        if (value instanceof Enum<?> e) {
            return e.name();
        }
        if (value instanceof Date d) {
            return d.toInstant().toString();
        }
        if (value instanceof TemporalAccessor || value instanceof java.time.temporal.TemporalAmount) {
            return value.toString();
        }
        if (value instanceof byte[] bytes) {
            return Base64.getEncoder().encodeToString(bytes);
        }
        if (value instanceof char[] chars) {
            return new String(chars);
        }
        if (value instanceof Optional<?> o) {
            return o.isPresent() ? write(o.get(), path, walk) : null;
        }
        if (value instanceof Throwable t) {
            Map<String, Object> tree = new LinkedHashMap<>();
            tree.put("type", t.getClass().getName());
            tree.put("message", t.getMessage());
            return tree;
        }
        boolean container = value.getClass().isArray() || value instanceof Iterable<?> || value instanceof Map<?, ?>
                || TypeShapes.isBean(value.getClass());
        if (!container) {
            return value.toString(); // a JDK value (UUID, URI, Locale, Class, ...) or a type with no tree form
        }
        walk.enter(value, path);
        try {
            return container(value, path, walk);
        } finally {
            walk.exit(value);
        }
    }

    private static Object container(Object value, TreePath path, TreeWalk walk) {
        if (value.getClass().isArray()) {
            int n = Array.getLength(value);
            List<Object> list = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                list.add(write(Array.get(value, i), path.index(i), walk));
            }
            return list;
        }
        if (value instanceof Iterable<?> items) {
            List<Object> list = new ArrayList<>(items instanceof Collection<?> c ? c.size() : 10);
            int i = 0;
            for (Object item : items) {
                list.add(write(item, path.index(i++), walk));
            }
            return list;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> tree = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                String key = e.getKey() instanceof Enum<?> k ? k.name() : String.valueOf(write(e.getKey(), path, walk));
                tree.put(key, write(e.getValue(), path.key(key), walk));
            }
            return tree;
        }
        Map<String, Object> tree = new LinkedHashMap<>();
        for (BeanProperties.Property p : BeanProperties.of(value.getClass()).values()) {
            Object property;
            try {
                property = p.get(value);
            } catch (ReflectiveOperationException e) {
                throw new TreeException(path.key(p.name()), "cannot read the property: " + e);
            }
            if (property != null) {
                tree.put(p.name(), write(property, path.key(p.name()), walk));
            }
        }
        return tree;
    }
}
