package io.kestrel.rpc.serialization.fst;

import io.kestrel.rpc.serialization.internal.DecodeTracker;
import io.kestrel.rpc.serialization.internal.HashCost;
import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import org.nustaq.serialization.FSTClazzInfo;
import org.nustaq.serialization.FSTConfiguration;
import org.nustaq.serialization.FSTDecoder;
import org.nustaq.serialization.FSTObjectInput;

/**
 * An fst object input over one whole value held in memory that refuses, before allocating, any
 * length the stream claims for more elements than the bytes left can hold. fst allocates arrays
 * ({@code Array.newInstance(type, claimed)} in {@link #readArrayNoHeader}) and pre-sizes
 * collections and maps ({@code new ArrayList(claimed)}, in its registered serializers) before it
 * reads any element, so without this a 5-byte length asks for 2^30 elements.
 *
 * <p>Where lengths are checked:
 * <ul>
 *   <li>arrays: here, in {@link #readArrayNoHeader}, which peeks the length fst is about to read;
 *   <li>{@code ArrayList}, {@code Vector}, {@code LinkedList}, {@code HashSet}, {@code HashMap},
 *       {@code LinkedHashMap}, {@code Hashtable}, {@code ConcurrentHashMap} and {@code BigInteger}:
 *       {@link BoundedFstSerializers}, registered over fst's own serializers for those types;
 *   <li>strings ({@code String}, {@code StringBuilder}/{@code StringBuffer}, class names):
 *       {@link BoundedFstDecoder};
 *   <li>JDK classes read through their own {@code readObject} (e.g. {@code ArrayDeque},
 *       {@code PriorityQueue}, {@code CopyOnWriteArrayList}, {@code LinkedHashSet},
 *       {@code IdentityHashMap}, {@code List.of(...)}'s serial form): they announce their array
 *       allocations to the stream's {@link ObjectInputFilter} ({@code checkArray}) before making
 *       them; {@link #getObjectInputStream} gives fst's emulated stream a filter that rejects
 *       arrays longer than the bytes left.
 * </ul>
 * Besides the per-claim check, the sum of all element claims in one value may not exceed the value's
 * size (each element takes at least one byte of its own), so nested claims cannot add up to more
 * than (largest element size) x (value size).
 *
 * <p>Decode budget: every value fst reads passes through {@link #readObjectWithHeader} (container
 * elements, map keys and values, object fields, back-references, and what JDK {@code readObject}
 * methods read through fst's emulated stream), which reports it to a {@link DecodeTracker}: depth,
 * value count, deadline, and the hash cost of each element or key of a hash-based set or map before it
 * is inserted. Hash-based containers announce themselves from {@link BoundedFstSerializers} (fst's
 * registered serializers) or, for those read by their own {@code readObject} (e.g.
 * {@code LinkedHashSet}), from {@link #getObjectInputStream}.
 *
 * <p>One per thread; {@link #startValue} before each value. Not thread-safe.
 */
final class BoundedFstObjectInput extends FSTObjectInput {
    private final ObjectInputFilter arrayFilter = this::checkFilteredArray;
    private long unclaimed;
    final DecodeTracker tracker = new DecodeTracker();

    BoundedFstObjectInput(FSTConfiguration conf) {
        super(conf);
    }

    /** Points this input at {@code bytes[0 .. length)} and resets the claim budget to {@code length}. */
    void startValue(byte[] bytes, int length) throws IOException {
        resetForReuseUseArray(bytes, length);
        unclaimed = length;
    }

    /**
     * Reads nothing: returns the compact int at the current position (where fst is about to read a
     * length) and leaves the position unchanged.
     */
    int peekLength() throws IOException {
        FSTDecoder codec = getCodec();
        int position = codec.getInputPos();
        int length = codec.readFInt();
        codec.moveTo(position);
        return length;
    }

    /**
     * Checks a claim of {@code count} elements of at least {@code minBytesEach} bytes each.
     *
     * @throws IOException if the claim is negative, more than the bytes left can hold, or more than
     *     what is left of this value's claim budget
     */
    void claim(int count, int minBytesEach, String what) throws IOException {
        if (count < 0) {
            throw new IOException("input claims a negative length (" + count + ") for " + what);
        }
        long left = getCodec().available();
        long needed = (long) count * minBytesEach;
        if (needed > left || count > unclaimed) {
            throw new IOException("input claims " + count + " elements for " + what + " but only "
                    + Math.min(left, unclaimed) + " bytes are left for them; refusing to allocate for it");
        }
        unclaimed -= count;
    }

    @Override
    public Object readObjectWithHeader(FSTClazzInfo.FSTFieldInfo referencee) throws Exception {
        boolean hashed = tracker.beforeValue();
        Object value = super.readObjectWithHeader(referencee);
        tracker.afterValue(value, hashed);
        return value;
    }

    @Override
    protected Object readArrayNoHeader(FSTClazzInfo.FSTFieldInfo referencee, int pos, Class arrCl) throws Exception {
        Class<?> component = arrCl.getComponentType();
        claim(peekLength(), minBytes(component), "a " + component.getTypeName() + "[]");
        return super.readArrayNoHeader(referencee, pos, arrCl);
    }

    /** The fewest bytes fst's default coder writes for one element of this type. */
    private static int minBytes(Class<?> component) {
        if (component == long.class || component == double.class) {
            return 8; // fixed 8 bytes each
        }
        if (component == float.class) {
            return 4;
        }
        return 1; // byte, boolean, and compact encodings (int, short, char) and references/null tags
    }

    @Override
    protected ObjectInputStream getObjectInputStream(Class cl, FSTClazzInfo clInfo, FSTClazzInfo.FSTFieldInfo referencee,
            Object toRead) throws IOException {
        if (HashCost.isHashBased(cl)) {
            tracker.hashContainer(!java.util.Collection.class.isAssignableFrom(cl));
        }
        ObjectInputStream stream = super.getObjectInputStream(cl, clInfo, referencee, toRead);
        // fst reuses one emulated stream per input, so the filter is set once. It only ever sees the
        // checkArray calls of JDK readObject methods (fst does not use the stream's own reading).
        if (stream.getObjectInputFilter() != arrayFilter) {
            ObjectInputFilter existing = stream.getObjectInputFilter();
            if (existing == null) {
                stream.setObjectInputFilter(arrayFilter);
            } else if (!(existing instanceof Merged)) {
                stream.setObjectInputFilter(new Merged(arrayFilter, existing));
            }
        }
        return stream;
    }

    private ObjectInputFilter.Status checkFilteredArray(ObjectInputFilter.FilterInfo info) {
        long length = info.arrayLength();
        if (length < 0) {
            return ObjectInputFilter.Status.UNDECIDED;
        }
        try {
            claim((int) Math.min(length, Integer.MAX_VALUE), 1, "an array in a JDK readObject");
            return ObjectInputFilter.Status.UNDECIDED;
        } catch (IOException e) {
            return ObjectInputFilter.Status.REJECTED;
        }
    }

    /** Our array check in front of a filter the JVM already put on the stream; rejects if either does. */
    private record Merged(ObjectInputFilter first, ObjectInputFilter second) implements ObjectInputFilter {
        @Override
        public Status checkInput(FilterInfo info) {
            Status s = first.checkInput(info);
            return s == Status.REJECTED ? s : second.checkInput(info);
        }
    }
}
