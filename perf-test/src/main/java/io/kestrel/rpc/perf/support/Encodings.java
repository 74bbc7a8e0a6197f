package io.kestrel.rpc.perf.support;

import com.alibaba.fastjson2.JSON;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.demo.DemoOptimizer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Encodes benchmark values the way a system puts them on the wire: with an installed serialization
 * (by name, with or without the {@link DemoOptimizer} registrations) or as JSON with fastjson2, as the
 * REST baselines do. Thread-safe; serializers are created once per name.
 */
public final class Encodings {
    /** Pseudo-serialization name for fastjson2 JSON as the REST baselines send it. */
    public static final String JSON_REST = "json";

    private static final Map<String, Serializer> SERIALIZERS = new ConcurrentHashMap<>();

    private Encodings() {
    }

    /** Whether {@code name} can encode here: {@link #JSON_REST} always can, others if installed. */
    public static boolean isAvailable(String name) {
        if (JSON_REST.equals(name)) {
            return true;
        }
        try {
            Serializations.installed().byName(name.endsWith(COMPATIBLE_SUFFIX)
                    ? name.substring(0, name.length() - COMPATIBLE_SUFFIX.length()) : name);
            return true;
        } catch (IllegalArgumentException | java.util.ServiceConfigurationError e) {
            return false;
        }
    }

    /** Installed serialization names, or an empty map if none (or a broken one) is on the class path. */
    public static Map<String, Byte> installedNames() {
        try {
            return Serializations.installed().names();
        } catch (RuntimeException | java.util.ServiceConfigurationError e) {
            return Map.of();
        }
    }

    /**
     * A serializer for {@code name}, created once.
     *
     * @param optimized whether the {@link DemoOptimizer} classes are registered
     */
    public static Serializer serializer(String name, boolean optimized) {
        return SERIALIZERS.computeIfAbsent(name + (optimized ? "+opt" : ""), k -> {
            boolean compatible = name.endsWith(COMPATIBLE_SUFFIX); // "kryo-compatible": compatible mode
            String serialization = compatible ? name.substring(0, name.length() - COMPATIBLE_SUFFIX.length()) : name;
            SerializationOptions.Builder options = SerializationOptions.builder().compatible(compatible);
            if (optimized) {
                options.optimizer(new DemoOptimizer());
            } else {
                // without registrations the model classes must still pass the allowlist
                options.allowlist(ClassAllowlist.withDefaults().allowPackage("io.kestrel.rpc.demo"));
            }
            return Serializations.installed().byName(serialization).create(options.build());
        });
    }

    /** Suffix of a serialization name that asks for its compatible mode, e.g. "fory-compatible". */
    public static final String COMPATIBLE_SUFFIX = "-compatible";

    /** The bytes of {@code value} in encoding {@code name} ({@link #JSON_REST} or a serialization, optimized). */
    public static byte[] encode(String name, Object value) {
        return encode(name, true, value);
    }

    /** The bytes of {@code value} in encoding {@code name}, with or without the optimizer registrations. */
    public static byte[] encode(String name, boolean optimized, Object value) {
        if (JSON_REST.equals(name)) {
            return JSON.toJSONBytes(value);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        serializer(name, optimized).serialize(value, out);
        return out.toByteArray();
    }

    /** Reads back what {@link #encode(String, boolean, Object)} wrote. */
    public static Object decode(String name, boolean optimized, byte[] bytes, Class<?> type) {
        if (JSON_REST.equals(name)) {
            return JSON.parseObject(bytes, type);
        }
        return serializer(name, optimized).deserialize(new ByteArrayInputStream(bytes), type);
    }
}
