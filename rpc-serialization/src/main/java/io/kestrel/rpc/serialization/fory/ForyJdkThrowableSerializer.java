package io.kestrel.rpc.serialization.fory;

import io.kestrel.rpc.api.serialization.DecodeBudget;
import io.kestrel.rpc.serialization.internal.AllowlistObjectInputStream;
import io.kestrel.rpc.serialization.internal.ClassFilter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.util.function.Supplier;
import org.apache.fory.context.ReadContext;
import org.apache.fory.context.WriteContext;
import org.apache.fory.memory.MemoryBuffer;
import org.apache.fory.resolver.TypeResolver;
import org.apache.fory.serializer.Serializer;
import org.apache.fory.serializer.SerializerFactory;

/**
 * Writes application (non-JDK) {@link Throwable}s as a length-prefixed JDK-serialized block inside the
 * fory stream, as the kryo and fst serializers do. Fory's own exception serializer keeps their
 * message and fields but not their stack trace (measured with fory 1.6: no frames arrive), and a
 * provider's frames are what a consumer needs to read a remote failure. Reading goes through
 * {@link AllowlistObjectInputStream}, so every class in the block is checked against the allowlist
 * and the call's decode budget applies. JDK exceptions keep fory's serializer, which carries frames.
 */
final class ForyJdkThrowableSerializer<T extends Throwable> extends Serializer<T> {
    private static final int MAX_BYTES = 16 * 1024 * 1024;

    private final ClassFilter filter;
    private final ClassLoader loader;
    private final Supplier<DecodeBudget> budget;

    private ForyJdkThrowableSerializer(TypeResolver resolver, Class<T> type, ClassFilter filter, ClassLoader loader,
            Supplier<DecodeBudget> budget) {
        super(resolver.getConfig(), type);
        this.filter = filter;
        this.loader = loader;
        this.budget = budget;
    }

    /** A factory answering for application Throwables only (null, fory's default, for everything else). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static SerializerFactory factory(ClassFilter filter, ClassLoader loader, Supplier<DecodeBudget> budget) {
        return (resolver, type) -> Throwable.class.isAssignableFrom(type) && !type.getName().startsWith("java.")
                ? new ForyJdkThrowableSerializer(resolver, type, filter, loader, budget) : null;
    }

    @Override
    public void write(WriteContext context, T value) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
        try (ObjectOutputStream oos = new ObjectOutputStream(bytes)) {
            oos.writeObject(value);
        } catch (IOException e) {
            throw new UncheckedIOException("JDK serialization of " + value.getClass().getName() + " failed", e);
        }
        MemoryBuffer buffer = context.getBuffer();
        buffer.writeInt32(bytes.size());
        buffer.writeBytes(bytes.toByteArray());
    }

    @Override
    public T read(ReadContext context) {
        MemoryBuffer buffer = context.getBuffer();
        int length = buffer.readInt32();
        if (length < 0 || length > MAX_BYTES || length > buffer.remaining()) {
            throw new IllegalStateException("embedded exception claims " + length + " bytes, "
                    + buffer.remaining() + " remain (limit " + MAX_BYTES + ")");
        }
        byte[] bytes = buffer.readBytes(length);
        try {
            Object value = new AllowlistObjectInputStream(new ByteArrayInputStream(bytes), filter, loader, budget.get())
                    .readObject();
            if (!type.isInstance(value)) {
                throw new IllegalStateException("expected a " + type.getName() + " but the embedded JDK stream held "
                        + (value == null ? "null" : value.getClass().getName()));
            }
            return type.cast(value);
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalStateException("JDK deserialization of " + type.getName() + " failed: " + e, e);
        }
    }
}
