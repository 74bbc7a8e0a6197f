package io.kestrel.rpc.serialization.internal;

import java.util.Objects;

/**
 * A class loader that asks the {@link ClassFilter} (the allowlist) before it delegates to its parent, so a
 * refused name is never loaded (and so never initialized or instantiated). Used as the loader of
 * engines whose class lookup cannot be hooked more directly.
 *
 * <p>{@code Class.forName("[Lcom.x.Y;", false, thisLoader)} asks this loader for the element
 * class, so arrays of refused classes are refused too. A refusal throws
 * {@link io.kestrel.rpc.api.ClassNotAllowedException} (unchecked) rather than
 * {@link ClassNotFoundException}: some engines quietly fall back to a map when a class is
 * missing, and a refusal must never be quiet.
 *
 * <p>Thread-safe: holds no state beyond the allowlist.
 */
public final class AllowlistClassLoader extends ClassLoader {
    static {
        registerAsParallelCapable();
    }

    private final ClassFilter filter;
    private final ClassLoader fallback;

    public AllowlistClassLoader(ClassLoader parent, ClassFilter filter) {
        this(parent, parent, filter);
    }

    /**
     * A loader that resolves through {@code parent} and, for a name {@code parent} cannot find,
     * through {@code fallback} (for example the thread's context loader first, then the loader that
     * was the context loader when the serializer was created). The allowlist is asked first either way.
     */
    public AllowlistClassLoader(ClassLoader parent, ClassLoader fallback, ClassFilter filter) {
        super("kestrel-allowlist", Objects.requireNonNull(parent, "parent"));
        this.fallback = Objects.requireNonNull(fallback, "fallback");
        this.filter = Objects.requireNonNull(filter, "filter");
    }

    /** The loader of this module, the usual parent. */
    public static ClassLoader defaultParent() {
        ClassLoader tccl = Thread.currentThread().getContextClassLoader();
        return tccl != null ? tccl : AllowlistClassLoader.class.getClassLoader();
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        filter.check(name);
        try {
            return super.loadClass(name, resolve);
        } catch (ClassNotFoundException e) {
            if (fallback == getParent()) {
                throw e;
            }
            return Class.forName(name, false, fallback);
        }
    }

}
