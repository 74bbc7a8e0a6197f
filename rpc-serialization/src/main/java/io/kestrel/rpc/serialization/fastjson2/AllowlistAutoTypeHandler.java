package io.kestrel.rpc.serialization.fastjson2;

import com.alibaba.fastjson2.JSONReader;
import com.alibaba.fastjson2.util.TypeUtils;
import io.kestrel.rpc.api.serialization.TypeNameLimits;
import io.kestrel.rpc.serialization.internal.ClassFilter;
import io.kestrel.rpc.serialization.internal.ClassNames;

/**
 * fastjson2's hook for type names read from the stream: called before fastjson2 resolves a name,
 * it checks the allowlist (throwing {@link io.kestrel.rpc.api.ClassNotAllowedException}) and only
 * then loads the class, uninitialized, from the given loader. This replaces fastjson2's global
 * autotype switch, which stays off.
 */
final class AllowlistAutoTypeHandler implements JSONReader.AutoTypeBeforeHandler {
    private final ClassFilter filter;
    private final ClassLoader loader;

    AllowlistAutoTypeHandler(ClassFilter filter, ClassLoader loader) {
        this.filter = filter;
        this.loader = loader;
    }

    @Override
    public Class<?> apply(String typeName, Class<?> expectClass, long features) {
        TypeNameLimits.check(typeName); // before the recursion below loads one array class per '['
        try {
            return resolve(typeName);
        } catch (ClassNotFoundException e) {
            return null; // fastjson2 then reports the unknown type itself
        }
    }

    private Class<?> resolve(String typeName) throws ClassNotFoundException {
        // JSONB abbreviates common JDK types ("A" is ArrayList); judge the class they stand for.
        Class<?> mapped = TypeUtils.getMapping(typeName);
        if (mapped != null) {
            filter.check(mapped.getName());
            return mapped;
        }
        if (typeName.length() > 1 && typeName.charAt(0) == '[' && !typeName.endsWith(";")) {
            // fastjson2 names an array "[" + element type name (not the JVM's "[Lname;")
            return resolve(typeName.substring(1)).arrayType();
        }
        filter.check(typeName);
        return ClassNames.forName(typeName, loader);
    }
}
