package io.kestrel.rpc.perf.jmh;

import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.perf.support.SerializationVariant;
import java.util.List;

/**
 * The serializers the JMH suite compares, by the name used in its {@code codec} parameter: each
 * serialization with the {@link JmhOptimizer} registrations, and "kryo-noopt" without them (class
 * names on the wire instead of ids); {@code <name>-compatible} is the serialization in compatible mode.
 */
public final class Codecs {
    /** Every codec name, in report order. */
    public static final List<String> NAMES = List.of("kryo", "kryo-noopt", "fst", "hessian2", "fastjson2", "java",
            "fory", "kryo-compatible", "fory-compatible");

    private static final String NOOPT_SUFFIX = "-noopt";

    private Codecs() {
    }

    /** A serializer for the named codec, created from {@code Serializations.installed()}. */
    public static Serializer create(String codec) {
        SerializationVariant variant = SerializationVariant.of(codec);
        String serialization = variant.serialization();
        if (!serialization.endsWith(NOOPT_SUFFIX)) {
            return variant.create(new JmhOptimizer());
        }
        return new SerializationVariant(serialization.substring(0, serialization.length() - NOOPT_SUFFIX.length()),
                variant.compatible()).createUnregistered("io.kestrel.rpc.demo", "io.kestrel.rpc.perf.jmh");
    }
}
