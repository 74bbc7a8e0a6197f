package io.kestrel.rpc.core.internal.shared;

import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.Serialization;
import io.kestrel.rpc.api.serialization.SerializationOptimizer;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.api.serialization.Serializer;
import java.util.ArrayList;
import java.util.List;
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
    private final Map<Class<?>, List<String>> registeredNames = new ConcurrentHashMap<>();

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

    /**
     * The names of the classes {@code optimizer} registers, in registration order without repeats (as
     * {@link SerializationOptions.Builder#optimizer} registers them); empty for null. Computed once per class.
     *
     * @throws IllegalArgumentException when the optimizer cannot be created
     */
    public List<String> registeredClassNames(Class<? extends SerializationOptimizer> optimizer) {
        if (optimizer == null) {
            return List.of();
        }
        return registeredNames.computeIfAbsent(optimizer, k -> {
            List<String> names = new ArrayList<>();
            for (Class<?> c : instantiate(optimizer).getSerializableClasses()) {
                if (c != null && !names.contains(c.getName())) {
                    names.add(c.getName());
                }
            }
            return List.copyOf(names);
        });
    }

    /**
     * Loads an optimizer class by name with the application's class loader.
     *
     * @throws ClassNotFoundException when it is not on the class path
     * @throws IllegalArgumentException when the class is no {@link SerializationOptimizer}
     */
    public Class<? extends SerializationOptimizer> loadOptimizer(String className) throws ClassNotFoundException {
        Class<?> c = Class.forName(className, false, applicationLoader);
        if (!SerializationOptimizer.class.isAssignableFrom(c)) {
            throw new IllegalArgumentException(className + " is not a " + SerializationOptimizer.class.getName());
        }
        return c.asSubclass(SerializationOptimizer.class);
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
