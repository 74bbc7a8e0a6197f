package io.kestrel.rpc.serialization.java;

import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.serialization.DecodeBudget;
import io.kestrel.rpc.api.serialization.DecodeLimits;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.api.serialization.SerializerIds;
import io.kestrel.rpc.serialization.internal.AllowlistClassLoader;
import io.kestrel.rpc.serialization.internal.AllowlistObjectInputStream;
import io.kestrel.rpc.serialization.internal.ClassFilter;
import io.kestrel.rpc.serialization.internal.SerializationFailures;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;

/**
 * Thread-safe JDK serializer: one {@link ObjectOutputStream} / {@link AllowlistObjectInputStream}
 * per call (JDK object streams carry per-stream state and cannot be reused across values).
 */
final class JavaSerializer implements Serializer {
    private final ClassFilter filter;
    private final ClassLoader loader;
    private final DecodeLimits limits;

    JavaSerializer(SerializationOptions options) {
        this.limits = options.decodeLimits();
        this.filter = new ClassFilter(options.allowlist());
        this.loader = new AllowlistClassLoader(AllowlistClassLoader.defaultParent(), filter);
    }

    @Override
    public byte id() {
        return SerializerIds.JAVA;
    }

    @Override
    public String name() {
        return "java";
    }

    @Override
    public void serialize(Object value, OutputStream out) throws SerializationException {
        try {
            ObjectOutputStream oos = new ObjectOutputStream(out);
            oos.writeObject(value);
            oos.flush(); // not close(): the stream is the caller's
        } catch (IOException | RuntimeException | StackOverflowError e) {
            throw SerializationFailures.encodeFailed("java", value, e);
        }
    }

    @Override
    public DecodeLimits decodeLimits() {
        return limits;
    }

    @Override
    public Object deserialize(InputStream in, Class<?> expectedType) throws SerializationException {
        return deserialize(in, expectedType, DecodeBudget.of(limits));
    }

    /** The budget is enforced by the stream's filter: see {@link AllowlistObjectInputStream}. */
    @Override
    public Object deserialize(InputStream in, Class<?> expectedType, DecodeBudget budget) throws SerializationException {
        try {
            return new AllowlistObjectInputStream(in, filter, loader, budget).readObject();
        } catch (IOException | ClassNotFoundException | RuntimeException | StackOverflowError e) {
            throw SerializationFailures.decodeFailed("java", expectedType, e);
        }
    }

    @Override
    public String toString() {
        return "JavaSerializer";
    }
}
