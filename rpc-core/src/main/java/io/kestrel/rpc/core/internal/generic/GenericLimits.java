package io.kestrel.rpc.core.internal.generic;

import io.kestrel.rpc.api.internal.SystemProperties;

/**
 * How much work one generic call's trees may cost the provider, whatever the caller sent. Serializers keep
 * shared references, so a few hundred bytes can decode to a list that holds the same list twice, forty
 * levels deep: a walk that followed every path would visit 3 x 2^40 nodes. Each walk over a call's trees (the
 * provider's plain-tree check of the arguments, their conversion to the declared types, the result's tree)
 * therefore counts the nodes it visits, shared ones each time they are reached, and stops:
 * <ul>
 *   <li>past {@link #maxNodes()} ({@value #DEFAULT_MAX_NODES}, {@code -D}{@value #MAX_NODES_PROPERTY});</li>
 *   <li>deeper than {@link #maxDepth()} ({@value #DEFAULT_MAX_DEPTH}, {@code -D}{@value #MAX_DEPTH_PROPERTY}),
 *       and at a value that contains itself;</li>
 *   <li>once the call's deadline has passed (checked as it goes, not only before).</li>
 * </ul>
 * A number (or numeric string) for a declared number type has at most {@link #maxNumberDigits()}
 * ({@value #DEFAULT_MAX_NUMBER_DIGITS}, {@code -D}{@value #MAX_NUMBER_DIGITS_PROPERTY}) characters, digits
 * and decimal exponent, checked before any arithmetic on it. Read from the system properties when a service
 * is exported. Immutable.
 */
public final class GenericLimits {
    public static final String MAX_NODES_PROPERTY = "kestrel.rpc.generic.maxNodes";
    public static final String MAX_DEPTH_PROPERTY = "kestrel.rpc.generic.maxDepth";
    public static final String MAX_NUMBER_DIGITS_PROPERTY = "kestrel.rpc.generic.maxNumberDigits";
    public static final long DEFAULT_MAX_NODES = 100_000;
    public static final int DEFAULT_MAX_DEPTH = 128;
    public static final int DEFAULT_MAX_NUMBER_DIGITS = 1_000;

    private final long maxNodes;
    private final int maxDepth;
    private final int maxNumberDigits;

    GenericLimits(long maxNodes, int maxDepth, int maxNumberDigits) {
        this.maxNodes = positive(MAX_NODES_PROPERTY, maxNodes);
        this.maxDepth = (int) positive(MAX_DEPTH_PROPERTY, maxDepth);
        this.maxNumberDigits = (int) positive(MAX_NUMBER_DIGITS_PROPERTY, maxNumberDigits);
    }

    /** The limits the system properties set now, the defaults for those unset. */
    public static GenericLimits fromSystemProperties() {
        return new GenericLimits(property(MAX_NODES_PROPERTY, DEFAULT_MAX_NODES),
                (int) Math.min(Integer.MAX_VALUE, property(MAX_DEPTH_PROPERTY, DEFAULT_MAX_DEPTH)),
                (int) Math.min(Integer.MAX_VALUE, property(MAX_NUMBER_DIGITS_PROPERTY, DEFAULT_MAX_NUMBER_DIGITS)));
    }

    /** Nodes one walk over a call's trees may visit (a shared node each time it is reached). */
    public long maxNodes() {
        return maxNodes;
    }

    /** How deeply lists, maps and objects may nest in one tree. */
    public int maxDepth() {
        return maxDepth;
    }

    /** Most characters, significant digits and decimal exponent of one number converted for a call. */
    public int maxNumberDigits() {
        return maxNumberDigits;
    }

    private static long property(String name, long fallback) {
        return SystemProperties.wholeNumber(name, fallback);
    }

    private static long positive(String property, long value) {
        if (value < 1) {
            throw new IllegalArgumentException(property + " must be at least 1, was " + value);
        }
        return value;
    }

    @Override
    public String toString() {
        return "GenericLimits{maxNodes=" + maxNodes + ", maxDepth=" + maxDepth + ", maxNumberDigits="
                + maxNumberDigits + "}";
    }
}
