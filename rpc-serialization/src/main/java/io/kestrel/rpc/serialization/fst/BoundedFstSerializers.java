package io.kestrel.rpc.serialization.fst;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Hashtable;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.Vector;
import java.util.concurrent.ConcurrentHashMap;
import org.nustaq.serialization.FSTClazzInfo;
import org.nustaq.serialization.FSTConfiguration;
import org.nustaq.serialization.FSTObjectInput;
import org.nustaq.serialization.serializers.FSTArrayListSerializer;
import org.nustaq.serialization.serializers.FSTBigIntegerSerializer;
import org.nustaq.serialization.serializers.FSTCollectionSerializer;
import org.nustaq.serialization.serializers.FSTMapSerializer;

/**
 * fst's own serializers for the types it pre-sizes from a stream length, each checking that length
 * first ({@link BoundedFstObjectInput#claim}). Each of fst's serializers starts
 * {@code instantiate} by reading the element count ({@code in.readInt()}) and then allocates
 * ({@code new ArrayList(count)}, {@code new HashMap(count)}, {@code new byte[count]} for
 * {@code BigInteger}); these subclasses peek that count, check it and let fst's code run unchanged.
 * Writing is inherited, so the wire format is fst's.
 *
 * <p>For the hash-based types they also announce the container to the input's decode tracker, so each
 * element or key is charged its hash cost before fst inserts it.
 *
 * <p>{@link #register} uses the same types and subclass flags as fst's default configuration.
 */
final class BoundedFstSerializers {
    private BoundedFstSerializers() {
    }

    static void register(FSTConfiguration conf) {
        conf.registerSerializer(ArrayList.class, new ArrayLists(), false);
        conf.registerSerializer(Vector.class, new Collections(), true);
        conf.registerSerializer(LinkedList.class, new Collections(), false);
        conf.registerSerializer(HashSet.class, new Collections(), false);
        conf.registerSerializer(HashMap.class, new Maps(), false);
        conf.registerSerializer(LinkedHashMap.class, new Maps(), false);
        conf.registerSerializer(Hashtable.class, new Maps(), true);
        conf.registerSerializer(ConcurrentHashMap.class, new Maps(), true);
        conf.registerSerializer(BigInteger.class, new BigIntegers(), true);
    }

    private static void claimLeadingCount(FSTObjectInput in, int minBytesEach, Class<?> type) throws Exception {
        if (in instanceof BoundedFstObjectInput bounded) {
            bounded.claim(bounded.peekLength(), minBytesEach, "a " + type.getName());
            if (io.kestrel.rpc.serialization.internal.HashCost.isHashBased(type)) {
                // its elements (or keys) are hashed as fst inserts them: cost them first
                bounded.tracker.hashContainer(java.util.Map.class.isAssignableFrom(type));
            }
        }
    }

    static final class ArrayLists extends FSTArrayListSerializer {
        @Override
        public Object instantiate(Class objectClass, FSTObjectInput in, FSTClazzInfo info, FSTClazzInfo.FSTFieldInfo ref,
                int pos) throws Exception {
            claimLeadingCount(in, 1, objectClass);
            return super.instantiate(objectClass, in, info, ref, pos);
        }
    }

    static final class Collections extends FSTCollectionSerializer {
        @Override
        public Object instantiate(Class objectClass, FSTObjectInput in, FSTClazzInfo info, FSTClazzInfo.FSTFieldInfo ref,
                int pos) throws Exception {
            claimLeadingCount(in, 1, objectClass);
            return super.instantiate(objectClass, in, info, ref, pos);
        }
    }

    static final class Maps extends FSTMapSerializer {
        @Override
        public Object instantiate(Class objectClass, FSTObjectInput in, FSTClazzInfo info, FSTClazzInfo.FSTFieldInfo ref,
                int pos) throws Exception {
            claimLeadingCount(in, 2, objectClass); // a key and a value per entry
            return super.instantiate(objectClass, in, info, ref, pos);
        }
    }

    static final class BigIntegers extends FSTBigIntegerSerializer {
        @Override
        public Object instantiate(Class objectClass, FSTObjectInput in, FSTClazzInfo info, FSTClazzInfo.FSTFieldInfo ref,
                int pos) throws Exception {
            claimLeadingCount(in, 1, objectClass); // the magnitude's byte count
            return super.instantiate(objectClass, in, info, ref, pos);
        }
    }
}
