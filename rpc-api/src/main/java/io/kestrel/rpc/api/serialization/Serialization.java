package io.kestrel.rpc.api.serialization;

/**
 * A serialization format, the extension point found with {@link java.util.ServiceLoader}. List
 * implementations in {@code META-INF/services/io.kestrel.rpc.api.serialization.Serialization}; each
 * needs a public no-arg constructor that does not throw.
 */
public interface Serialization {
    /** Stable wire id; see {@link SerializerIds}. */
    byte id();

    /** Short name used in configuration, e.g. "kryo", "hessian2". */
    String name();

    /**
     * Whether {@link SerializationOptions#compatible()} is supported: a reader tolerates fields
     * added, removed or reordered by the writer's version of a class.
     */
    boolean supportsCompatibleMode();

    /**
     * Whether this format refuses, before allocating, any length a byte stream claims beyond what
     * the rest of the input can hold (so a hostile request of at most the payload limit cannot make
     * the provider allocate far more). Providers accept a serialization that does not only when it
     * is configured explicitly. Default true.
     */
    default boolean boundsClaimedLengths() {
        return true;
    }

    /**
     * Whether this format's serializers enforce a {@link DecodeBudget} while decoding (depth, values,
     * hash-collection work and the deadline; see {@link DecodeLimits}), so that a hostile request of
     * at most the payload limit cannot keep a thread busy for long. Like
     * {@link #boundsClaimedLengths()}, providers should accept one that does not only when it is
     * configured explicitly. Default false: a plug-in must opt in by overriding
     * {@link Serializer#deserialize(java.io.InputStream, Class, DecodeBudget)}.
     */
    default boolean boundsDecodeWork() {
        return false;
    }

    /**
     * Whether this format writes the classes registered by a {@link SerializationOptimizer} as numbers
     * given in registration order, so that both sides of a connection must register the same classes in
     * the same order (kryo, fst, fory). Consumers compare their optimizer's classes with the provider's
     * for such formats and leave a provider out when they differ. Default true, the safe answer for a
     * plug-in; formats that only use registration to allow classes (hessian2, java, fastjson2) say false.
     */
    default boolean encodesRegisteredClassesByNumber() {
        return true;
    }

    /**
     * What this format cannot do with values of {@code type}, known without trying: for example a
     * class that does not implement {@link java.io.Serializable} for a format that requires it, or a
     * record for a format that cannot create records. The framework asks at export and refer for each
     * type in a service's signatures (parameters, return values, type arguments) and the field types
     * of those classes, and refuses to start (or warns) naming the type, the method and the
     * serializations that have no problem with it. Called with concrete classes, interfaces,
     * primitives and arrays alike; must be fast and must not throw. Default: nothing known.
     */
    default java.util.Optional<TypeProblem> problemWith(Class<?> type) {
        return java.util.Optional.empty();
    }

    /**
     * Creates a thread-safe serializer for these options.
     *
     * @throws IllegalArgumentException if the options ask for something this format cannot do
     *     (for example compatible mode where {@link #supportsCompatibleMode()} is false); the
     *     message says what to change
     */
    Serializer create(SerializationOptions options);
}
