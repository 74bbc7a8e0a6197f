package io.kestrel.rpc.core.internal.generic;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Tree numbers (and numeric strings, as JSON clients send large longs) to a declared number type. Exact:
 * a fraction for an integer type, or a value out of the type's range, is refused rather than cut.
 */
final class Numbers {
    private Numbers() {
    }

    static Object convert(Object tree, Class<?> type, String path) {
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
            value = TreeReader.decimal(n);
        } else if (tree instanceof String s) {
            try {
                value = new BigDecimal(s.trim());
            } catch (NumberFormatException e) {
                throw TreeReader.mismatch(path, "a number (" + type.getName() + ")", tree);
            }
        } else {
            throw TreeReader.mismatch(path, "a number (" + type.getName() + ")", tree);
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
        BigInteger integer;
        try {
            integer = value.toBigIntegerExact();
        } catch (ArithmeticException e) {
            throw new TreeException(path, value + " has a fraction; " + type.getName() + " is an integer type");
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
}
