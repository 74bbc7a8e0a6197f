package io.kestrel.rpc.api.serialization;

import java.util.Collection;

/**
 * Lists the classes to register with the serializer ahead of time, as in
 * {@code <rpc:protocol serialization="kryo" optimizer="com.example.MyOptimizer"/>}. Registered
 * classes are written as small ids instead of class names, and are trusted by the deserialization
 * allowlist.
 *
 * <p>Both sides of a connection must list the same classes in the same order. Implementations need
 * a public no-arg constructor.
 */
public interface SerializationOptimizer {
    /** The classes to register, in a stable order. */
    Collection<Class<?>> getSerializableClasses();
}
