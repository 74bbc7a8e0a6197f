package io.kestrel.rpc.serialization.kryo;

import com.esotericsoftware.kryo.util.DefaultClassResolver;
import io.kestrel.rpc.serialization.internal.ClassFilter;

/**
 * Kryo's class resolver with one change: a class name read from the stream is checked against the
 * allowlist before kryo looks it up or loads it. Classes registered by id were allowlisted when they
 * were registered (see {@code SerializationOptions}).
 */
final class AllowlistClassResolver extends DefaultClassResolver {
    private final ClassFilter filter;

    AllowlistClassResolver(ClassFilter filter) {
        this.filter = filter;
    }

    @Override
    protected Class getTypeByName(String className) {
        // Kryo calls this with each name read from the stream (once per name per graph),
        // before Class.forName. A refusal throws ClassNotAllowedException.
        filter.check(className);
        return super.getTypeByName(className);
    }
}
