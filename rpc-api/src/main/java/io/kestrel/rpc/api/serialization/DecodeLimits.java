package io.kestrel.rpc.api.serialization;

/**
 * How much work decoding one request (or one response) may do, whatever its bytes say. A value that
 * needs more is refused with {@link io.kestrel.rpc.api.DecodeLimitException}, whose message names the
 * limit, its value and the setting that raises it. Immutable and thread-safe.
 *
 * <p>The limits and why they exist:
 * <ul>
 *   <li>{@link #maxDepth()} ({@value #DEFAULT_MAX_DEPTH}, {@code -D}{@value #MAX_DEPTH_PROPERTY}): how
 *       deeply objects, collections, maps and arrays may nest. Guards the reading thread's stack.
 *       Engines count a level per nested value (an object, a list inside it, an element of that
 *       list), so a DTO nested N levels with lists in between uses about 2N.</li>
 *   <li>{@link #maxElements()} ({@value #DEFAULT_MAX_ELEMENTS}, {@code -D}{@value #MAX_ELEMENTS_PROPERTY}):
 *       values read per request (objects, collection elements, map entries, back-references; all
 *       arguments of a call together). Bounds the work and the heap one request can cost.</li>
 *   <li>{@link #maxHashNesting()} ({@value #DEFAULT_MAX_HASH_NESTING}, {@code -D}{@value #MAX_HASH_NESTING_PROPERTY}):
 *       how many hash-based sets and maps ({@code HashSet}, {@code HashMap}, their linked and
 *       concurrent variants, {@code Hashtable}) may nest inside one another along one path. Hashing a
 *       set hashes everything inside it, so sets of sets sharing their members ("SerialDOS") make
 *       decoding time grow exponentially with this nesting; capping it refuses that shape at once.</li>
 *   <li>{@link #maxHashWork()} ({@value #DEFAULT_MAX_HASH_WORK}, {@code -D}{@value #MAX_HASH_WORK_PROPERTY}):
 *       values the JDK may visit computing the hash codes of the keys and set elements inserted while
 *       decoding one request (one per key that is a string or number; a list key costs one per element,
 *       recursively, shared parts counted each time they are reached). Serializations whose
 *       {@link Serialization#boundsDecodeWork()} is true measure it before each insertion, so any shape,
 *       not only deep nesting, is refused before the JDK does the work.</li>
 * </ul>
 * Besides these, a {@link DecodeBudget} carries the call's deadline: decoding stops at the next value
 * once it has passed.
 *
 * <p>Each default is read once from its system property, if set; {@link Builder} overrides per
 * serializer ({@link SerializationOptions.Builder#decodeLimits}).
 */
public final class DecodeLimits {
    public static final String MAX_DEPTH_PROPERTY = "kestrel.rpc.serialization.maxDepth";
    public static final String MAX_ELEMENTS_PROPERTY = "kestrel.rpc.serialization.maxElements";
    public static final String MAX_HASH_NESTING_PROPERTY = "kestrel.rpc.serialization.maxHashNesting";
    public static final String MAX_HASH_WORK_PROPERTY = "kestrel.rpc.serialization.maxHashWork";

    public static final int DEFAULT_MAX_DEPTH = 64;
    public static final long DEFAULT_MAX_ELEMENTS = 1_000_000;
    public static final int DEFAULT_MAX_HASH_NESTING = 8;
    public static final long DEFAULT_MAX_HASH_WORK = 4_000_000;

    /** Which limit a refusal hit; each names the setting that raises it. */
    public enum Limit {
        DEPTH("maxDepth", MAX_DEPTH_PROPERTY),
        ELEMENTS("maxElements", MAX_ELEMENTS_PROPERTY),
        HASH_NESTING("maxHashNesting", MAX_HASH_NESTING_PROPERTY),
        HASH_WORK("maxHashWork", MAX_HASH_WORK_PROPERTY),
        /** The call's deadline; raised with the call's {@code timeout}, not a decode setting. */
        DEADLINE("timeout", null);

        private final String setting;
        private final String property;

        Limit(String setting, String property) {
            this.setting = setting;
            this.property = property;
        }

        /** The builder method of {@link DecodeLimits.Builder} (or "timeout" for {@link #DEADLINE}). */
        public String setting() {
            return setting;
        }

        /** The system property that sets the default, or null for {@link #DEADLINE}. */
        public String property() {
            return property;
        }

        /** How to raise this limit, for error messages. */
        String howToRaise() {
            if (property == null) {
                return "the caller's timeout (ReferenceConfig/ServiceConfig timeout) bounds decoding too; "
                        + "raise it if such values are legitimate";
            }
            return "if such values are legitimate, raise it with -D" + property + "=<n> or "
                    + "SerializationOptions.builder().decodeLimits(DecodeLimits.builder()." + setting + "(n))";
        }
    }

    private static final DecodeLimits DEFAULTS = fromSystemProperties();

    private final int maxDepth;
    private final long maxElements;
    private final int maxHashNesting;
    private final long maxHashWork;

    private DecodeLimits(Builder b) {
        this.maxDepth = b.maxDepth;
        this.maxElements = b.maxElements;
        this.maxHashNesting = b.maxHashNesting;
        this.maxHashWork = b.maxHashWork;
    }

    /** The defaults, as overridden by the system properties (read once, when this class loads). */
    public static DecodeLimits defaults() {
        return DEFAULTS;
    }

    /** A builder starting from {@link #defaults()}. */
    public static Builder builder() {
        return new Builder(DEFAULTS);
    }

    /** A builder starting from these limits. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Most nesting levels of values inside values. Default {@value #DEFAULT_MAX_DEPTH}. */
    public int maxDepth() {
        return maxDepth;
    }

    /** Most values read per request. Default {@value #DEFAULT_MAX_ELEMENTS}. */
    public long maxElements() {
        return maxElements;
    }

    /** Most hash-based sets and maps nested inside one another. Default {@value #DEFAULT_MAX_HASH_NESTING}. */
    public int maxHashNesting() {
        return maxHashNesting;
    }

    /** Most values hashed for the insertions of one request. Default {@value #DEFAULT_MAX_HASH_WORK}. */
    public long maxHashWork() {
        return maxHashWork;
    }

    /** The value of {@code limit} here ({@link Limit#DEADLINE} has none: -1). */
    public long valueOf(Limit limit) {
        return switch (limit) {
            case DEPTH -> maxDepth;
            case ELEMENTS -> maxElements;
            case HASH_NESTING -> maxHashNesting;
            case HASH_WORK -> maxHashWork;
            case DEADLINE -> -1;
        };
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DecodeLimits l && maxDepth == l.maxDepth && maxElements == l.maxElements
                && maxHashNesting == l.maxHashNesting && maxHashWork == l.maxHashWork;
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(maxDepth, maxElements, maxHashNesting, maxHashWork);
    }

    @Override
    public String toString() {
        return "DecodeLimits{maxDepth=" + maxDepth + ", maxElements=" + maxElements + ", maxHashNesting="
                + maxHashNesting + ", maxHashWork=" + maxHashWork + "}";
    }

    static DecodeLimits fromSystemProperties() {
        Builder b = new Builder();
        b.maxDepth((int) property(MAX_DEPTH_PROPERTY, DEFAULT_MAX_DEPTH));
        b.maxElements(property(MAX_ELEMENTS_PROPERTY, DEFAULT_MAX_ELEMENTS));
        b.maxHashNesting((int) property(MAX_HASH_NESTING_PROPERTY, DEFAULT_MAX_HASH_NESTING));
        b.maxHashWork(property(MAX_HASH_WORK_PROPERTY, DEFAULT_MAX_HASH_WORK));
        return b.build();
    }

    private static long property(String name, long fallback) {
        return io.kestrel.rpc.api.internal.SystemProperties.wholeNumber(name, fallback);
    }

    /** Validates each value (positive, within int range where it is an int) and names it in the error. */
    public static final class Builder {
        private int maxDepth = DEFAULT_MAX_DEPTH;
        private long maxElements = DEFAULT_MAX_ELEMENTS;
        private int maxHashNesting = DEFAULT_MAX_HASH_NESTING;
        private long maxHashWork = DEFAULT_MAX_HASH_WORK;

        private Builder() {
        }

        private Builder(DecodeLimits from) {
            this.maxDepth = from.maxDepth;
            this.maxElements = from.maxElements;
            this.maxHashNesting = from.maxHashNesting;
            this.maxHashWork = from.maxHashWork;
        }

        /** At least 1, at most 10,000 (deeper recursion risks the stack anyway). */
        public Builder maxDepth(int maxDepth) {
            if (maxDepth < 1 || maxDepth > 10_000) {
                throw new IllegalArgumentException("maxDepth must be in 1..10000, was " + maxDepth);
            }
            this.maxDepth = maxDepth;
            return this;
        }

        public Builder maxElements(long maxElements) {
            if (maxElements < 1) {
                throw new IllegalArgumentException("maxElements must be > 0, was " + maxElements);
            }
            this.maxElements = maxElements;
            return this;
        }

        public Builder maxHashNesting(int maxHashNesting) {
            if (maxHashNesting < 1) {
                throw new IllegalArgumentException("maxHashNesting must be > 0, was " + maxHashNesting);
            }
            this.maxHashNesting = maxHashNesting;
            return this;
        }

        public Builder maxHashWork(long maxHashWork) {
            if (maxHashWork < 1) {
                throw new IllegalArgumentException("maxHashWork must be > 0, was " + maxHashWork);
            }
            this.maxHashWork = maxHashWork;
            return this;
        }

        public DecodeLimits build() {
            return new DecodeLimits(this);
        }
    }
}
