package io.kestrel.rpc.core.internal.generic;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Tree numbers (and numeric strings, as JSON clients send large longs) to a declared number type. Exact:
 * a fraction for an integer type, or a value out of the type's range, is refused rather than cut. The size
 * of a number is checked before any arithmetic on it: "1e100000000" is eleven characters, and turning it
 * into a long's BigInteger would take minutes and all the heap. A number may have at most
 * {@link GenericLimits#maxNumberDigits()} characters, significant digits and decimal exponent; for the
 * integer types, one with more integer digits than the type holds is out of its range without being
 * expanded.
 */
final class Numbers {
    /** Decimal digits of the largest value of each fixed-size integer type (long: 19). */
    private static final int LONG_DIGITS = 19;
    private static final double DIGITS_PER_BIT = Math.log10(2);

    private Numbers() {
    }

    static Object convert(Object tree, Class<?> type, TreePath path, GenericLimits limits) {
        BigDecimal value;
        if (tree instanceof Number n) {
            if (n instanceof Double d && (d.isNaN() || d.isInfinite()) || n instanceof Float f && (f.isNaN() || f.isInfinite())) {
                if (type == double.class || type == Double.class) {
                    return n.doubleValue();
                }
                if (type == float.class || type == Float.class) {
                    return n.floatValue();
                }
                throw new TreeException(path, n + " is not a " + type.getName());
            }
            if (bits(n) * DIGITS_PER_BIT > limits.maxNumberDigits()) {
                throw tooLarge(path, PlainTree.describe(n), type, limits);
            }
            value = TreeReader.decimal(n);
        } else if (tree instanceof String s) {
            String text = s.trim();
            if (text.length() > limits.maxNumberDigits()) {
                throw tooLarge(path, "a numeric string of " + text.length() + " characters", type, limits);
            }
            try {
                value = new BigDecimal(text);
            } catch (NumberFormatException e) {
                throw TreeReader.mismatch(path, "a number (" + type.getName() + ")", tree);
            }
        } else {
            throw TreeReader.mismatch(path, "a number (" + type.getName() + ")", tree);
        }
        if (Math.abs((long) value.scale()) > limits.maxNumberDigits()) {
            throw tooLarge(path, PlainTree.describe(tree) + " (decimal exponent " + (-(long) value.scale()) + ")", type,
                    limits);
        }
        if (type == double.class || type == Double.class) {
            return value.doubleValue();
        }
        if (type == float.class || type == Float.class) {
            return value.floatValue();
        }
        if (type == BigDecimal.class) {
            return value;
        }
        // integer digits, from the sizes alone: a value with more than a long holds is not expanded to find out
        long integerDigits = (long) value.precision() - value.scale();
        if (type != BigInteger.class && integerDigits > LONG_DIGITS) {
            throw new TreeException(path, PlainTree.describe(tree) + " is out of the range of " + type.getName());
        }
        BigInteger integer;
        try {
            integer = value.toBigIntegerExact();
        } catch (ArithmeticException e) {
            throw new TreeException(path, PlainTree.describe(tree) + " has a fraction; " + type.getName()
                    + " is an integer type");
        }
        if (type == BigInteger.class) {
            return integer;
        }
        try {
            if (type == long.class || type == Long.class) {
                return integer.longValueExact();
            }
            if (type == int.class || type == Integer.class) {
                return integer.intValueExact();
            }
            if (type == short.class || type == Short.class) {
                return integer.shortValueExact();
            }
            if (type == byte.class || type == Byte.class) {
                return integer.byteValueExact();
            }
        } catch (ArithmeticException e) {
            throw new TreeException(path, integer + " is out of the range of " + type.getName());
        }
        throw new TreeException(path, "no number conversion to " + type.getName());
    }

    /** The bits of a big number's magnitude (its unscaled value's for a BigDecimal); 0 for the others. */
    static long bits(Object n) {
        if (n instanceof BigInteger i) {
            return i.bitLength();
        }
        if (n instanceof BigDecimal d) {
            return d.unscaledValue().bitLength();
        }
        return 0;
    }

    private static TreeException tooLarge(TreePath path, String what, Class<?> type, GenericLimits limits) {
        return new TreeException(path, what + " is larger than a number for " + type.getName() + " may be: at most "
                + limits.maxNumberDigits() + " characters, digits and decimal exponent (-D"
                + GenericLimits.MAX_NUMBER_DIGITS_PROPERTY + " on the provider raises it)");
    }
}
