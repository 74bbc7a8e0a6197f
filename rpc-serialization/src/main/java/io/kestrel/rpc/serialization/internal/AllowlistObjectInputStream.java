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

    public AllowlistObjectInputStream(InputStream in, ClassFilter filter, ClassLoader loader) throws IOException {
        super(in);
        this.filter = filter;
        this.loader = loader;
        setObjectInputFilter(AllowlistObjectInputStream::checkInput);
    }

    private static ObjectInputFilter.Status checkInput(ObjectInputFilter.FilterInfo info) {
        // Class names are checked in resolveClass, before loading. The filter also sees array types
        // that collections ask about before allocating (HashMap asks about Map.Entry[]), which are
        // not classes read from the stream; it only bounds sizes here.
        if (info.depth() > MAX_DEPTH || info.arrayLength() > MAX_ARRAY_LENGTH) {
            return ObjectInputFilter.Status.REJECTED;
        }
        return ObjectInputFilter.Status.UNDECIDED;
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
