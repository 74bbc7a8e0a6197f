package io.kestrel.rpc.core.internal;

import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.Serialization;
import io.kestrel.rpc.api.serialization.SerializationOptimizer;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.api.serialization.Serializer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Serializers of one runtime, created once per (serialization, optimizer, compatible) and shared by
 * every connection; all of them enforce the runtime's allowlist.
 */
public final class SerializerCache {
    private record Key(String name, Class<? extends SerializationOptimizer> optimizer, boolean compatible) {
    }

    private final ClassAllowlist allowlist;
    private final ClassLoader applicationLoader;
    private final Map<Key, Serializer> serializers = new ConcurrentHashMap<>();

    /**
     * @param allowlist enforced by every serializer
     * @param applicationLoader the loader application classes are read with; serializers bind to
     *     the context class loader at creation, and creation may happen on any thread (an I/O thread
     *     on the provider), so it is set explicitly
     */
    public SerializerCache(ClassAllowlist allowlist, ClassLoader applicationLoader) {
        this.allowlist = allowlist;
        this.applicationLoader = applicationLoader;
    }

    public ClassAllowlist allowlist() {
        return allowlist;
    }

    /**
     * The serializer for this configuration.
     *
     * @throws IllegalArgumentException for an unknown name, an optimizer that cannot be created, or
     *     options the serialization refuses; the message says what to change
     */
    public Serializer get(String name, Class<? extends SerializationOptimizer> optimizer, boolean compatible) {
        Serialization serialization = Serializations.installed().byName(name);
        return serializers.computeIfAbsent(new Key(serialization.name(), optimizer, compatible), k -> {
            SerializationOptions.Builder options = SerializationOptions.builder().allowlist(allowlist).compatible(compatible);
            if (optimizer != null) {
                options.optimizer(instantiate(optimizer));
            }
            Thread thread = Thread.currentThread();
            ClassLoader previous = thread.getContextClassLoader();
            thread.setContextClassLoader(applicationLoader);
            try {
                return serialization.create(options.build());
            } finally {
                thread.setContextClassLoader(previous);
            }
        });
    }

    private static SerializationOptimizer instantiate(Class<? extends SerializationOptimizer> type) {
        try {
            return type.getConstructor().newInstance();
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalArgumentException("Cannot create serialization optimizer " + type.getName()
                    + ": it needs a public no-arg constructor that does not throw (" + e + ")", e);
        }
    }
}
