package io.kestrel.rpc.core.internal.generic;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;

/**
 * What a plain tree may hold: {@code Map} with string keys, {@code List}, {@code String}, the JDK's own
 * numbers (Integer, Long, Short, Byte, Double, Float, BigInteger, BigDecimal), {@code Boolean}, null. Both
 * sides check arguments against it: the consumer before sending, the provider after decoding (the decoder
 * admits only allowlisted classes, and this admits none of the application's).
 */
public final class PlainTree {
    private PlainTree() {
    }

    /**
     * Returns {@code tree} if every node in it is a plain tree node.
     *
     * @throws IllegalArgumentException naming the path and the class of the first node that is not
     */
    public static Object checked(Object tree, String path) {
        check(tree, path, 0);
        return tree;
    }

    private static void check(Object node, String path, int depth) {
        if (node == null || node instanceof String || node instanceof Boolean || isNumber(node)) {
            return;
        }
        if (node instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!(e.getKey() instanceof String key)) {
                    throw new TreeException(path, "map keys are strings in a tree, this one is " + describe(e.getKey()));
                }
                if (TreeReader.CLASS_KEYS.contains(key)) {
                    throw new TreeException(path, "the key '" + key + "' names a class (" + describe(e.getValue())
                            + "); generic invocation never creates a class the caller names. Remove the key");
                }
                check(e.getValue(), path + "." + key, depth + 1);
            }
            return;
        }
        if (node instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                check(list.get(i), path + "[" + i + "]", depth + 1);
            }
            return;
        }
        throw new TreeException(path, "a " + node.getClass().getName() + " is not a plain tree value; generic calls"
                + " carry maps, lists, strings, numbers, booleans and null (convert objects to maps of their properties)");
    }

    static boolean isNumber(Object o) {
        return o instanceof Integer || o instanceof Long || o instanceof Double || o instanceof Float
                || o instanceof Short || o instanceof Byte || o instanceof BigDecimal || o instanceof BigInteger;
    }

    /** "String 'abc'", "Integer 5", "a map", for messages (values cut at 60 characters). */
    static String describe(Object tree) {
        if (tree == null) {
            return "null";
        }
        if (tree instanceof Map<?, ?>) {
            return "a map";
        }
        if (tree instanceof List<?>) {
            return "a list";
        }
        String text = String.valueOf(tree);
        if (text.length() > 60) {
            text = text.substring(0, 60) + "...";
        }
        return typeOf(tree) + (tree instanceof String ? " '" + text + "'" : " " + text);
    }

    static String typeOf(Object o) {
        return o == null ? "null" : o.getClass().getSimpleName();
    }
}
