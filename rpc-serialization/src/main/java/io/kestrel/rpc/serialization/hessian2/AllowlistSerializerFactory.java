package io.kestrel.rpc.serialization.hessian2;

import com.caucho.hessian.io.AbstractHessianInput;
import com.caucho.hessian.io.ArrayDeserializer;
import com.caucho.hessian.io.Deserializer;
import com.caucho.hessian.io.HessianProtocolException;
import com.caucho.hessian.io.SerializerFactory;
import io.kestrel.rpc.api.internal.BoundedCache;
import io.kestrel.rpc.api.serialization.TypeNameLimits;
import io.kestrel.rpc.serialization.internal.ClassFilter;
import java.io.IOException;
import java.util.Set;

/**
 * Hessian's serializer factory with the allowlist in front of type lookup. Hessian resolves every
 * type name it reads (object definitions, typed lists and maps, array element types) through
 * {@link #getDeserializer(String)}; this checks the name first and throws
 * {@link io.kestrel.rpc.api.ClassNotAllowedException}. Without this, hessian's own
 * {@code ClassFactory} would quietly turn a denied class into a {@code HashMap}.
 *
 * <p>Array types ("[com.x.Y") are resolved element first, with bounded names and a bounded cache
 * (see {@link #getDeserializer(String)}). Hessian's built-in short names ("int", "string", ...) need no check.
 *
 * <p>Lengths: {@code Hessian2Input} gets every deserializer that is handed a length from the stream
 * through {@link #getListDeserializer(String, Class)} (fixed-length lists and typed arrays,
 * {@code readLengthList}), {@link #readList} (variable lists) and
 * {@link #getObjectDeserializer(String, Class)} (an object definition's field count,
 * {@code createFields}, allocated before the field names are read). Those are wrapped in a
 * {@link BoundedDeserializer}, which checks the length against {@link LengthBudget} first.
 */
final class AllowlistSerializerFactory extends SerializerFactory {
    private static final Set<String> HESSIAN_TYPE_NAMES = Set.of(
            "void", "boolean", "byte", "short", "int", "long", "float", "double", "char", "string", "object", "date");

    static {
        HessianLogLimit.install(); // hessian logs every unknown class name it reads: rate-limited, cut
    }

    private final ClassFilter filter;
    /** Array type name to its deserializer, for arrays of a resolved element only. */
    private final BoundedCache<String, Deserializer> arrays = new BoundedCache<>(TypeNameLimits.nameCacheSize());

    AllowlistSerializerFactory(ClassLoader loader, ClassFilter filter) {
        super(loader);
        this.filter = filter;
    }

    /**
     * The JDK's immutable and wrapper collections ({@code List.of}, {@code Set.of}, {@code Map.of},
     * {@code Collections.unmodifiable*}, {@code Arrays.asList}) have no constructor hessian could call
     * when reading, so they are written as a copy in the standard mutable class of the same kind
     * (ArrayList, LinkedHashSet, LinkedHashMap): equal contents, readable everywhere.
     */
    @Override
    public com.caucho.hessian.io.Serializer getSerializer(Class cl) throws HessianProtocolException {
        String name = cl.getName();
        if ((name.startsWith("java.util.ImmutableCollections$") || name.startsWith("java.util.Collections$")
                || name.equals("java.util.Arrays$ArrayList"))
                && (java.util.Collection.class.isAssignableFrom(cl) || java.util.Map.class.isAssignableFrom(cl))) {
            return MutableCopySerializer.INSTANCE;
        }
        return super.getSerializer(cl);
    }

    /** Writes a JDK immutable or wrapper collection as a mutable copy; see {@link #getSerializer}. */
    private static final class MutableCopySerializer extends com.caucho.hessian.io.AbstractSerializer {
        static final MutableCopySerializer INSTANCE = new MutableCopySerializer();

        @Override
        public void writeObject(Object obj, com.caucho.hessian.io.AbstractHessianOutput out) throws IOException {
            Object copy;
            if (obj instanceof java.util.Map<?, ?> map) {
                copy = new java.util.LinkedHashMap<>(map);
            } else if (obj instanceof Set<?> set) {
                copy = new java.util.LinkedHashSet<>(set);
            } else {
                copy = new java.util.ArrayList<>((java.util.Collection<?>) obj);
            }
            out.writeObject(copy);
        }
    }

    /**
     * Array types are resolved here, not by hessian: hessian caches a deserializer for every array type
     * name it is given, resolvable or not and each prefix of a deep one too, and loads one array class
     * per dimension, so distinct names from callers would grow the heap and the metaspace for good. Here
     * the name's length and dimensions are bounded first ({@link TypeNameLimits}), the element is
     * checked against the allowlist, and only arrays of a resolved element are cached, in a bounded
     * cache. Other names go to hessian after the allowlist: it caches only classes it could load.
     */
    @Override
    public Deserializer getDeserializer(String type) throws HessianProtocolException {
        if (type == null || type.isEmpty()) {
            return super.getDeserializer(type);
        }
        TypeNameLimits.check(type);
        int dimensions = TypeNameLimits.dimensions(type);
        String element = type.substring(dimensions);
        if (HESSIAN_TYPE_NAMES.contains(element) && dimensions <= 1) {
            return super.getDeserializer(type); // hessian's own static table ("int", "[string", ...)
        }
        if (dimensions == 0) {
            filter.check(type);
            return super.getDeserializer(type);
        }
        Deserializer cached = arrays.get(type);
        if (cached != null) {
            return cached;
        }
        Deserializer component = getDeserializer(type.substring(1));
        if (component == null) {
            return new UnresolvedArray(Object.class); // hessian's answer for an unknown element; not cached
        }
        if (component instanceof UnresolvedArray) {
            return new UnresolvedArray(component.getType());
        }
        Deserializer array = new ArrayDeserializer(component.getType());
        arrays.put(type, array);
        return array;
    }

    /** An array whose element class is unknown (read as Object arrays, as hessian does): never cached. */
    private static final class UnresolvedArray extends ArrayDeserializer {
        UnresolvedArray(Class<?> componentType) {
            super(componentType);
        }
    }

    /** Array deserializers cached now (bounded by {@link TypeNameLimits#nameCacheSize()}). */
    int cachedArrayTypes() {
        return arrays.size();
    }

    /** Hash-based sets and maps are read by {@link HashContainerDeserializer} (hash cost before insertion). */
    @Override
    public Deserializer getDeserializer(Class cl) throws HessianProtocolException {
        return HashContainerDeserializer.wrap(cl, super.getDeserializer(cl));
    }

    /** An untyped map ('H') has no deserializer of its own in hessian; read it as a hash map, budgeted. */
    @Override
    public Object readMap(AbstractHessianInput in, String type) throws IOException {
        Deserializer d = type == null || type.isEmpty() ? null : getDeserializer(type);
        if (d == null) {
            d = getDeserializer(java.util.HashMap.class);
        }
        return d.readMap(in);
    }

    @Override
    public Deserializer getListDeserializer(String type, Class cl) throws HessianProtocolException {
        return BoundedDeserializer.wrap(super.getListDeserializer(type, cl));
    }

    @Override
    public Deserializer getListDeserializer(String type) throws HessianProtocolException {
        return BoundedDeserializer.wrap(super.getListDeserializer(type));
    }

    @Override
    public Deserializer getObjectDeserializer(String type, Class cl) throws HessianProtocolException {
        return BoundedDeserializer.wrap(super.getObjectDeserializer(type, cl));
    }

    @Override
    public Deserializer getObjectDeserializer(String type) throws HessianProtocolException {
        return BoundedDeserializer.wrap(super.getObjectDeserializer(type));
    }

    @Override
    public Object readList(AbstractHessianInput in, int length, String type) throws IOException {
        if (length >= 0) {
            LengthBudget.claim(length, "a list of type " + type);
        }
        return super.readList(in, length, type);
    }
}
