package io.kestrel.rpc.serialization.kryo;

import com.esotericsoftware.kryo.ClassResolver;
import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.ReferenceResolver;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import io.kestrel.rpc.serialization.internal.DecodeTracker;

/**
 * A {@link Kryo} that reports every value it reads (through any of its public {@code read*} methods,
 * which every kryo serializer uses for nested values, back-references included) to a
 * {@link DecodeTracker}: depth, value count, deadline, and the hash cost of each key or set element
 * before the bounded hash serializers ({@link BoundedCollectionSerializers}) insert it. None of these
 * methods calls another, so each value is reported once. Not thread-safe (one per pooled engine).
 */
final class TrackingKryo extends Kryo {
    final DecodeTracker tracker = new DecodeTracker();

    TrackingKryo(ClassResolver classResolver, ReferenceResolver referenceResolver) {
        super(classResolver, referenceResolver);
    }

    @Override
    public Object readClassAndObject(Input input) {
        boolean hashed = tracker.beforeValue();
        Object value = super.readClassAndObject(input);
        tracker.afterValue(value, hashed);
        return value;
    }

    @Override
    public <T> T readObject(Input input, Class<T> type) {
        boolean hashed = tracker.beforeValue();
        T value = super.readObject(input, type);
        tracker.afterValue(value, hashed);
        return value;
    }

    @Override
    public <T> T readObject(Input input, Class<T> type, Serializer serializer) {
        boolean hashed = tracker.beforeValue();
        T value = super.readObject(input, type, serializer);
        tracker.afterValue(value, hashed);
        return value;
    }

    @Override
    public <T> T readObjectOrNull(Input input, Class<T> type) {
        boolean hashed = tracker.beforeValue();
        T value = super.readObjectOrNull(input, type);
        tracker.afterValue(value, hashed);
        return value;
    }

    @Override
    public <T> T readObjectOrNull(Input input, Class<T> type, Serializer serializer) {
        boolean hashed = tracker.beforeValue();
        T value = super.readObjectOrNull(input, type, serializer);
        tracker.afterValue(value, hashed);
        return value;
    }

    /** The tracker of {@code kryo} if it is one of ours, else null. */
    static DecodeTracker trackerOf(Kryo kryo) {
        return kryo instanceof TrackingKryo t ? t.tracker : null;
    }
}
