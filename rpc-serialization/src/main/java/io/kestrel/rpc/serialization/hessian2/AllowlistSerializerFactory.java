package io.kestrel.rpc.serialization.hessian2;

import com.caucho.hessian.io.Deserializer;
import com.caucho.hessian.io.HessianProtocolException;
import com.caucho.hessian.io.SerializerFactory;
import io.kestrel.rpc.serialization.internal.ClassFilter;
import java.util.Set;

/**
 * Hessian's serializer factory with the allowlist in front of type lookup. Hessian resolves every
 * type name it reads (object definitions, typed lists and maps, array element types) through
 * {@link #getDeserializer(String)}; this checks the name first and throws
 * {@link io.kestrel.rpc.api.ClassNotAllowedException}. Without this, hessian's own
 * {@code ClassFactory} would quietly turn a denied class into a {@code HashMap}.
 *
 * <p>Array types ("[com.x.Y") are passed on; hessian strips the '[' and calls back here with the
 * element name. Hessian's built-in short names ("int", "string", ...) need no check.
 */
final class AllowlistSerializerFactory extends SerializerFactory {
    private static final Set<String> HESSIAN_TYPE_NAMES = Set.of(
            "void", "boolean", "byte", "short", "int", "long", "float", "double", "char", "string", "object", "date");

    private final ClassFilter filter;

    AllowlistSerializerFactory(ClassLoader loader, ClassFilter filter) {
        super(loader);
        this.filter = filter;
    }

    @Override
    public Deserializer getDeserializer(String type) throws HessianProtocolException {
        if (type != null && !type.isEmpty() && type.charAt(0) != '[' && !HESSIAN_TYPE_NAMES.contains(type)) {
            filter.check(type);
        }
        return super.getDeserializer(type);
    }
}
