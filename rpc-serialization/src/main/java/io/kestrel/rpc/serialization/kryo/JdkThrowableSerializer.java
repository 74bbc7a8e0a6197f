package io.kestrel.rpc.serialization.kryo;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import io.kestrel.rpc.serialization.internal.AllowlistObjectInputStream;
import io.kestrel.rpc.serialization.internal.ClassFilter;
import java.io.IOException;
import java.io.ObjectOutputStream;

/**
 * Writes {@link Throwable}s with JDK serialization inside the kryo stream. Kryo's field serializer
 * cannot reach {@code Throwable}'s private fields (message, cause, stack trace) on JDK 17+ without
 * {@code --add-opens}, while JDK serialization can, and exceptions already define what their
 * serialized form is. Reading goes through {@link AllowlistObjectInputStream}, so every class in the
 * exception (including field values of custom exceptions) is checked against the allowlist.
 *
 * <p>Only {@code Throwable}s use this; ordinary classes never fall back to JDK serialization.
 */
final class JdkThrowableSerializer extends Serializer<Throwable> {
    private final ClassFilter filter;

    JdkThrowableSerializer(ClassFilter filter) {
        this.filter = filter;
    }

    @Override
    public void write(Kryo kryo, Output output, Throwable object) {
        try {
            ObjectOutputStream oos = new ObjectOutputStream(output);
            oos.writeObject(object);
            oos.flush();
        } catch (IOException e) {
            throw new KryoException("JDK serialization of " + object.getClass().getName() + " failed", e);
        }
    }

    @Override
    public Throwable read(Kryo kryo, Input input, Class<? extends Throwable> type) {
        try {
            io.kestrel.rpc.serialization.internal.DecodeTracker tracker = TrackingKryo.trackerOf(kryo);
            AllowlistObjectInputStream ois = new AllowlistObjectInputStream(input, filter, kryo.getClassLoader(),
                    tracker == null ? io.kestrel.rpc.api.serialization.DecodeBudget.defaults() : tracker.budget());
            Object value = ois.readObject();
            if (!type.isInstance(value)) {
                throw new KryoException("Expected a " + type.getName() + " but the embedded JDK stream held "
                        + (value == null ? "null" : value.getClass().getName()));
            }
            return (Throwable) value;
        } catch (IOException | ClassNotFoundException e) {
            throw new KryoException("JDK deserialization of " + type.getName() + " failed", e);
        }
    }
}
