package io.kestrel.rpc.serialization.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;
import java.lang.reflect.Proxy;

/**
 * An {@link ObjectInputStream} that checks every class descriptor's name (array and enum
 * descriptors included) against the allowlist in {@link #resolveClass} <em>before</em> the class is
 * loaded, and installs an {@link ObjectInputFilter} that bounds graph depth and array lengths. Dynamic proxies are refused outright.
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

    public AllowlistObjectInputStream(InputStream in, ClassFilter filter, ClassLoader loader) throws IOException {
        this(in, filter, loader, in.available());
    }

    private AllowlistObjectInputStream(InputStream in, ClassFilter filter, ClassLoader loader, long totalBytes)
            throws IOException {
        super(in);
        this.filter = filter;
        this.loader = loader;
        this.totalBytes = totalBytes;
        setObjectInputFilter(this::checkInput);
    }

    private ObjectInputFilter.Status checkInput(ObjectInputFilter.FilterInfo info) {
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
