package io.kestrel.rpc.serialization.kryo;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.serializers.CollectionSerializer;
import com.esotericsoftware.kryo.serializers.DefaultArraySerializers.ObjectArraySerializer;
import com.esotericsoftware.kryo.serializers.MapSerializer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Vector;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Kryo's collection, map and object-array serializers with the claimed size checked against the
 * bytes left in the {@link BoundedInput} before the container is created: kryo pre-sizes
 * {@code ArrayList}, {@code HashMap} and friends, and allocates object arrays, with the size read
 * from the stream. Each element or entry takes at least one byte, so a larger claim is refused.
 * Registered as default serializers for the JDK types kryo pre-sizes (others are created empty).
 */
final class BoundedCollectionSerializers {
    private static final Class<?>[] PRESIZED_COLLECTIONS = {
        ArrayList.class, HashSet.class, LinkedHashSet.class, ArrayDeque.class, PriorityQueue.class, Vector.class,
    };
    private static final Class<?>[] PRESIZED_MAPS = {
        HashMap.class, LinkedHashMap.class, IdentityHashMap.class, ConcurrentHashMap.class,
    };

    private BoundedCollectionSerializers() {
    }

    static void install(Kryo kryo) {
        for (Class<?> c : PRESIZED_COLLECTIONS) {
            kryo.addDefaultSerializer(c, BoundedCollectionSerializer.class);
        }
        for (Class<?> c : PRESIZED_MAPS) {
            kryo.addDefaultSerializer(c, BoundedMapSerializer.class);
        }
        kryo.addDefaultSerializer(Object[].class, BoundedObjectArraySerializer.class);
    }

    private static void check(Input input, int count, String what) {
        if (input instanceof BoundedInput bounded) {
            bounded.checkCount(count, what);
        }
    }

    /** Checks the element count before kryo creates (and pre-sizes) the collection. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    public static final class BoundedCollectionSerializer extends CollectionSerializer<Collection> {
        @Override
        protected Collection create(Kryo kryo, Input input, Class<? extends Collection> type, int size) {
            check(input, size, "collection elements");
            return super.create(kryo, input, type, size);
        }
    }

    /** Checks the entry count before kryo creates (and pre-sizes) the map. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    public static final class BoundedMapSerializer extends MapSerializer<Map> {
        @Override
        protected Map create(Kryo kryo, Input input, Class<? extends Map> type, int size) {
            check(input, size, "map entries");
            return super.create(kryo, input, type, size);
        }
    }

    /** Peeks at the length (written + 1, 0 for null) before kryo allocates the array. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    public static final class BoundedObjectArraySerializer extends ObjectArraySerializer {
        public BoundedObjectArraySerializer(Kryo kryo, Class<?> type) {
            super(kryo, type);
        }

        @Override
        public Object[] read(Kryo kryo, Input input, Class type) {
            int start = input.position();
            int lengthPlusOne = input.readVarInt(true);
            input.setPosition(start);
            if (lengthPlusOne > 1) {
                check(input, lengthPlusOne - 1, "array elements");
            }
            return super.read(kryo, input, type);
        }
    }
}
