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

    /** Characters of a caller's string quoted in a message. */
    static final int EXCERPT_CHARS = 100;

    /**
     * Returns {@code tree} if every node in it is a plain tree node, walked within the default limits
     * ({@link TreeWalk#unbounded()}).
     *
     * @throws IllegalArgumentException naming the path and the class of the first node that is not
     */
    public static Object checked(Object tree, String path) {
        return checked(tree, path, TreeWalk.unbounded());
    }

    /** As {@link #checked(Object, String)}, counting the nodes in {@code walk}. */
    public static Object checked(Object tree, String path, TreeWalk walk) {
        check(tree, TreePath.root(path), walk);
        return tree;
    }

    static Object checked(Object tree, TreePath path, TreeWalk walk) {
        check(tree, path, walk);
        return tree;
    }

    private static void check(Object node, TreePath path, TreeWalk walk) {
        walk.visit(path);
        if (node == null || node instanceof String || node instanceof Boolean || isNumber(node)) {
            return;
        }
        if (node instanceof Map<?, ?> map) {
            if (!walk.enterOnce(map, path)) {
                return;
            }
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!(e.getKey() instanceof String key)) {
                    throw new TreeException(path, "map keys are strings in a tree, this one is " + describe(e.getKey()));
                }
                if (TreeReader.CLASS_KEYS.contains(key)) {
                    throw new TreeException(path, "the key '" + key + "' names a class (" + describe(e.getValue())
                            + "); generic invocation never creates a class the caller names. Remove the key");
                }
                check(e.getValue(), path.key(key), walk);
            }
            walk.exit(map);
            return;
        }
        if (node instanceof List<?> list) {
            if (!walk.enterOnce(list, path)) {
                return;
            }
            for (int i = 0; i < list.size(); i++) {
                check(list.get(i), path.index(i), walk);
            }
            walk.exit(list);
            return;
        }
        throw new TreeException(path, "a " + node.getClass().getName() + " is not a plain tree value; generic calls"
                + " carry maps, lists, strings, numbers, booleans and null (convert objects to maps of their properties)");
    }

    static boolean isNumber(Object o) {
        return o instanceof Integer || o instanceof Long || o instanceof Double || o instanceof Float
                || o instanceof Short || o instanceof Byte || o instanceof BigDecimal || o instanceof BigInteger;
    }

    /** {@code text} cut at {@value #EXCERPT_CHARS} characters, saying how long it was: for quoting a caller's text. */
    static String excerpt(String text) {
        return text.length() <= EXCERPT_CHARS ? text
                : text.substring(0, EXCERPT_CHARS) + "... (" + text.length() + " characters)";
    }

    /**
     * "String 'abc'", "Integer 5", "a map", for messages: text cut at {@value #EXCERPT_CHARS} characters, a large
     * number by its size (its text would cost more than the call is worth).
     */
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
        if (Numbers.bits(tree) > 256) {
            return typeOf(tree) + " of " + Numbers.bits(tree) + " bits" + (tree instanceof BigDecimal d
                    ? " with scale " + d.scale() : "");
        }
        String text = excerpt(String.valueOf(tree));
        return typeOf(tree) + (tree instanceof String ? " '" + text + "'" : " " + text);
    }

    /** "; did you mean 'x'?" for a short {@code wanted} (the comparison costs its length times each name's). */
    static String suggestion(String wanted, java.util.Collection<String> known) {
        return wanted.length() > EXCERPT_CHARS ? "" : io.kestrel.rpc.api.internal.NearestName.suggestion(wanted, known);
    }

    static String typeOf(Object o) {
        return o == null ? "null" : o.getClass().getSimpleName();
    }
}
