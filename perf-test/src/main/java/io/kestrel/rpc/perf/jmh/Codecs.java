package io.kestrel.rpc.perf.jmh;

import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.api.serialization.Serializer;
import java.io.ByteArrayOutputStream;
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

    private Codecs() {
    }

    /** A serializer for the named codec, created from {@code Serializations.installed()}. */
    public static Serializer create(String codec) {
        boolean compatible = codec.endsWith("-compatible"); // "<name>-compatible": compatible mode, optimizer on
        codec = compatible ? codec.substring(0, codec.length() - "-compatible".length()) : codec;
        boolean optimized = !codec.endsWith("-noopt");
        String serialization = optimized ? codec : codec.substring(0, codec.length() - "-noopt".length());
        SerializationOptions.Builder options = SerializationOptions.builder().compatible(compatible);
        if (optimized) {
            options.optimizer(new JmhOptimizer());
        } else {
            options.allowlist(ClassAllowlist.withDefaults().allowPackage("io.kestrel.rpc.demo")
                    .allowPackage("io.kestrel.rpc.perf.jmh"));
        }
        return Serializations.installed().byName(serialization).create(options.build());
    }

    /** The bytes of {@code value} in {@code codec}. */
    public static byte[] encode(Serializer serializer, Object value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
        serializer.serialize(value, out);
        return out.toByteArray();
    }
}
