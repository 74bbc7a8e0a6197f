package io.kestrel.rpc.serialization.internal;

import io.kestrel.rpc.api.serialization.DecodeBudget;
import io.kestrel.rpc.api.serialization.DecodeLimits;
import java.io.IOException;
import java.io.InputStream;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;
import java.lang.reflect.Proxy;
import java.util.Map;

/**
 * An {@link ObjectInputStream} that checks every class descriptor's name (array and enum
 * descriptors included) against the allowlist in {@link #resolveClass} <em>before</em> the class is
 * loaded, and installs an {@link ObjectInputFilter} that bounds graph depth and array lengths. Dynamic proxies are refused outright.
 *
 * <p>The filter also holds the stream to a {@link DecodeBudget}. The JDK calls it for every object,
 * class descriptor, back-reference and array it reads (not for strings and nulls): each call counts as
 * one value ({@link DecodeLimits#maxElements()}, and the deadline is checked), its depth is held to
 * {@link DecodeLimits#maxDepth()}, and the class seen at each depth is remembered, so that the number of
 * hash-based sets and maps on the current path is held to {@link DecodeLimits#maxHashNesting()}. The
 * filter cannot see the objects themselves, so hash work is not measured: JDK serialization does not
 * bound decode work fully (see {@code JavaSerialization#boundsDecodeWork}). A limit refusal is the cause
 * of the JDK's {@code InvalidClassException("filter status: REJECTED")}.
 *
 * <p>One instance per stream (as with any {@code ObjectInputStream}); not thread-safe.
 */
public final class AllowlistObjectInputStream extends ObjectInputStream {
    /** Deeper graphs than this are refused rather than risking a stack overflow. */
    public static final long MAX_DEPTH = 1_000;
    /** Arrays longer than this are refused before they are allocated. */
    public static final long MAX_ARRAY_LENGTH = 16 * 1024 * 1024;

    private final ClassFilter filter;
    private final ClassLoader loader;
    /** Bytes of the whole value when known (the stream's {@code available()} at start), else 0. */
    private final long totalBytes;
    private final DecodeBudget budget;
    /** Depth of the enclosing engine's value when this stream started (0 for a stream of its own). */
    private final int baseDepth;
    /** Depths of the hash-based sets and maps being read, outermost first. */
    private int[] hashDepths = new int[8];
    private int hashCount;

    public AllowlistObjectInputStream(InputStream in, ClassFilter filter, ClassLoader loader, DecodeBudget budget)
            throws IOException {
        this(in, filter, loader, in.available(), budget);
    }

    private AllowlistObjectInputStream(InputStream in, ClassFilter filter, ClassLoader loader, long totalBytes,
            DecodeBudget budget) throws IOException {
        super(in);
        this.filter = filter;
        this.loader = loader;
        this.totalBytes = totalBytes;
        this.budget = budget;
        this.baseDepth = budget.depth();
        setObjectInputFilter(this::checkInput);
    }

    /**
     * Holds the stream to the budget; a refusal throws, and the JDK keeps it as the cause of its own.
     *
     * <p>Hash nesting: the JDK calls the filter at least once for every object it reads (its class
     * descriptor, or the back-reference to it), at the object's depth, and {@code HashSet},
     * {@code HashMap} (and their linked variants) and {@code Hashtable} announce their table as a
     * {@code Map.Entry[]} at their own depth before reading any element. So the hash containers being
     * read are those announced at a depth less than the current one; any call at depth d means those
     * announced at d or deeper are finished.
     */
    private void checkBudget(ObjectInputFilter.FilterInfo info) {
        budget.element();
        long depth = info.depth();
        int limit = budget.limits().maxDepth();
        if (depth + baseDepth > limit) {
            throw budget.refused(DecodeLimits.Limit.DEPTH, "values are nested more than " + limit + " deep");
        }
        int d = (int) depth;
        while (hashCount > 0 && hashDepths[hashCount - 1] >= d) {
            hashCount--;
        }
        Class<?> type = info.serialClass();
        if (type != null && type.isArray() && Map.Entry.class.isAssignableFrom(type.getComponentType())) {
            if (hashCount == hashDepths.length) {
                hashDepths = java.util.Arrays.copyOf(hashDepths, hashCount * 2);
            }
            hashDepths[hashCount++] = d;
            if (hashCount + budget.hashNesting() > budget.limits().maxHashNesting()) {
                throw budget.refused(DecodeLimits.Limit.HASH_NESTING, "hash-based sets and maps are nested more than "
                        + budget.limits().maxHashNesting() + " deep inside one another (each level re-hashes everything below it)");
            }
        }
    }

    private ObjectInputFilter.Status checkInput(ObjectInputFilter.FilterInfo info) {
        checkBudget(info);
        // Class names are checked in resolveClass, before loading. The filter also sees array types
        // that collections ask about before allocating (HashMap asks about Map.Entry[]), which are
        // not classes read from the stream; it only bounds sizes here.
        long length = info.arrayLength();
        if (info.depth() > MAX_DEPTH || length > MAX_ARRAY_LENGTH) {
            return ObjectInputFilter.Status.REJECTED;
        }
        if (length > 0 && totalBytes > 0 && length > allowedLength(info)) {
            return ObjectInputFilter.Status.REJECTED; // claims more elements than the input can hold
        }
        return ObjectInputFilter.Status.UNDECIDED;
    }

    /**
     * The longest array the rest of the input can account for: a primitive array's elements are
     * in the stream at their width; object arrays (and tables collections size from a count, such
     * as HashMap's) hold at most a few slots per byte left. The constant covers tiny values.
     */
    private long allowedLength(ObjectInputFilter.FilterInfo info) {
        long left = Math.max(0, totalBytes - info.streamBytes());
        Class<?> type = info.serialClass();
        Class<?> component = type != null && type.isArray() ? type.getComponentType() : null;
        if (component != null && component.isPrimitive()) {
            int width = component == long.class || component == double.class ? 8
                    : component == int.class || component == float.class ? 4
                    : component == short.class || component == char.class ? 2 : 1;
            return left / width + 64;
        }
        return left * 4 + 64;
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
        String name = desc.getName();
        filter.check(name); // before any loading
        return ClassNames.forName(name, loader);
    }

    @Override
    protected Class<?> resolveProxyClass(String[] interfaces) throws IOException {
        throw new InvalidClassException(Proxy.class.getName(), "dynamic proxies are never deserialized");
    }
}
