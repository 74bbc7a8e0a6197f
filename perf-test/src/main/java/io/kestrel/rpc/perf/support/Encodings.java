package io.kestrel.rpc.perf.support;

import com.alibaba.fastjson2.JSON;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.demo.DemoOptimizer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Encodes benchmark values the way a system puts them on the wire: with an installed serialization
 * (a {@link SerializationVariant} name, with or without the {@link DemoOptimizer} registrations) or
 * as JSON with fastjson2, as the REST baselines do. Thread-safe; serializers are created once per name.
 */
public final class Encodings {
    /** Pseudo-serialization name for fastjson2 JSON as the REST baselines send it. */
    public static final String JSON_REST = "json";

    private static final Map<String, Serializer> SERIALIZERS = new ConcurrentHashMap<>();

    private Encodings() {
    }

    /** Whether {@code name} can encode here: {@link #JSON_REST} always can, others if installed. */
    public static boolean isAvailable(String name) {
        return JSON_REST.equals(name) || SerializationVariant.of(name).isInstalled();
    }

    /** Installed serialization names, or an empty map if none (or a broken one) is on the class path. */
    public static Map<String, Byte> installedNames() {
        try {
            return Serializations.installed().names();
        } catch (RuntimeException | ServiceConfigurationError e) {
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
            SerializationVariant variant = SerializationVariant.of(name);
            // without registrations the model classes must still pass the allowlist
            return optimized ? variant.create(new DemoOptimizer()) : variant.createUnregistered("io.kestrel.rpc.demo");
        });
    }

    /** The bytes of {@code value} in encoding {@code name} ({@link #JSON_REST} or a serialization, optimized). */
    public static byte[] encode(String name, Object value) {
        return encode(name, true, value);
    }

    /** The bytes of {@code value} in encoding {@code name}, with or without the optimizer registrations. */
    public static byte[] encode(String name, boolean optimized, Object value) {
        if (JSON_REST.equals(name)) {
            return JSON.toJSONBytes(value);
        }
        return toBytes(serializer(name, optimized), value);
    }

    /** The bytes {@code serializer} writes for {@code value}. */
    public static byte[] toBytes(Serializer serializer, Object value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
        serializer.serialize(value, out);
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
