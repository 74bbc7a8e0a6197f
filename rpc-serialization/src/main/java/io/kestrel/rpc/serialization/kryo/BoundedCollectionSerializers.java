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
import java.util.Hashtable;
import java.util.IdentityHashMap;
import io.kestrel.rpc.serialization.internal.DecodeTracker;
import io.kestrel.rpc.serialization.internal.HashCost;
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
 *
 * <p>For the hash-based ones ({@link HashCost#isHashBased}) they also tell the kryo's
 * {@link DecodeTracker} that a hash-based set or map starts being filled, so that each element or key
 * is charged its hash cost before kryo inserts it, and the nesting of such containers is counted.
 */
final class BoundedCollectionSerializers {
    private static final Class<?>[] PRESIZED_COLLECTIONS = {
        ArrayList.class, HashSet.class, LinkedHashSet.class, ArrayDeque.class, PriorityQueue.class, Vector.class,
    };
    private static final Class<?>[] PRESIZED_MAPS = {
        HashMap.class, LinkedHashMap.class, IdentityHashMap.class, ConcurrentHashMap.class, Hashtable.class,
        java.util.WeakHashMap.class,
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
        // JDK wrappers (unmodifiable, synchronized, Arrays.asList) cannot be filled by kryo's
        // collection serializer after creation; they travel as a mutable copy of the same kind.
        for (String name : new String[] {"java.util.Collections$UnmodifiableCollection",
            "java.util.Collections$SynchronizedCollection", "java.util.Arrays$ArrayList"}) {
            kryo.addDefaultSerializer(jdkClass(name), new CopyingCollectionSerializer());
        }
        for (String name : new String[] {"java.util.Collections$UnmodifiableMap", "java.util.Collections$SynchronizedMap"}) {
            kryo.addDefaultSerializer(jdkClass(name), new CopyingMapSerializer());
        }
    }

    private static Class<?> jdkClass(String name) {
        try {
            return Class.forName(name, false, ClassLoader.getPlatformClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("JDK class " + name + " not found", e);
        }
    }

    /** Writes a wrapper collection's elements; reads them into an ArrayList or LinkedHashSet. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    static final class CopyingCollectionSerializer extends com.esotericsoftware.kryo.Serializer<Collection> {
        @Override
        public void write(Kryo kryo, com.esotericsoftware.kryo.io.Output output, Collection c) {
            output.writeBoolean(c instanceof java.util.Set);
            output.writeVarInt(c.size(), true);
            for (Object e : c) {
                kryo.writeClassAndObject(output, e);
            }
        }

        @Override
        public Collection read(Kryo kryo, Input input, Class<? extends Collection> type) {
            boolean set = input.readBoolean();
            int size = input.readVarInt(true);
            check(input, size, "collection elements");
            if (set) {
                hashContainer(kryo, false);
            }
            Collection c = set ? new LinkedHashSet(size) : new ArrayList(size);
            kryo.reference(c);
            for (int i = 0; i < size; i++) {
                c.add(kryo.readClassAndObject(input));
            }
            return c;
        }
    }

    /** Writes a wrapper map's entries; reads them into a LinkedHashMap. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    static final class CopyingMapSerializer extends com.esotericsoftware.kryo.Serializer<Map> {
        @Override
        public void write(Kryo kryo, com.esotericsoftware.kryo.io.Output output, Map m) {
            output.writeVarInt(m.size(), true);
            for (Object o : m.entrySet()) {
                Map.Entry e = (Map.Entry) o;
                kryo.writeClassAndObject(output, e.getKey());
                kryo.writeClassAndObject(output, e.getValue());
            }
        }

        @Override
        public Map read(Kryo kryo, Input input, Class<? extends Map> type) {
            int size = input.readVarInt(true);
            check(input, size * 2, "map entries");
            hashContainer(kryo, true);
            Map m = new LinkedHashMap(size);
            kryo.reference(m);
            for (int i = 0; i < size; i++) {
                m.put(kryo.readClassAndObject(input), kryo.readClassAndObject(input));
            }
            return m;
        }
    }

    private static void check(Input input, int count, String what) {
        if (input instanceof BoundedInput bounded) {
            bounded.checkCount(count, what);
        }
    }

    private static void hashContainer(Kryo kryo, boolean map) {
        DecodeTracker tracker = TrackingKryo.trackerOf(kryo);
        if (tracker != null) {
            tracker.hashContainer(map);
        }
    }

    /** Checks the element count before kryo creates (and pre-sizes) the collection. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    public static final class BoundedCollectionSerializer extends CollectionSerializer<Collection> {
        @Override
        protected Collection create(Kryo kryo, Input input, Class<? extends Collection> type, int size) {
            check(input, size, "collection elements");
            if (HashCost.isHashBased(type)) {
                hashContainer(kryo, false);
            }
            return super.create(kryo, input, type, size);
        }
    }

    /** Checks the entry count before kryo creates (and pre-sizes) the map. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    public static final class BoundedMapSerializer extends MapSerializer<Map> {
        @Override
        protected Map create(Kryo kryo, Input input, Class<? extends Map> type, int size) {
            check(input, size, "map entries");
            if (HashCost.isHashBased(type)) {
                hashContainer(kryo, true);
            }
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
