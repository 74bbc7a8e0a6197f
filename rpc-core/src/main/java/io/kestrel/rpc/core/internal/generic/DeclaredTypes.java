package io.kestrel.rpc.core.internal.generic;

import java.lang.reflect.Array;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.HashMap;
import java.util.Map;

/** What {@link TreeReader} needs to know of a declared {@link Type}: its class, its type arguments, its bindings. */
final class DeclaredTypes {
    private DeclaredTypes() {
    }

    /** The class of a declared type (a type variable by what it is bound to, else its bound). */
    static Class<?> raw(Type type, Map<TypeVariable<?>, Type> bound) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType p) {
            return (Class<?>) p.getRawType();
        }
        if (type instanceof GenericArrayType g) {
            return Array.newInstance(raw(g.getGenericComponentType(), bound), 0).getClass();
        }
        if (type instanceof TypeVariable<?> v) {
            Type actual = bound.get(v);
            return raw(actual != null ? actual : v.getBounds()[0], Map.of());
        }
        if (type instanceof WildcardType w) {
            return raw(w.getUpperBounds()[0], bound);
        }
        return Object.class;
    }

    /** The i-th type argument, Object when the type is raw. */
    static Type argument(Type type, int i) {
        if (type instanceof ParameterizedType p && p.getActualTypeArguments().length > i) {
            return p.getActualTypeArguments()[i];
        }
        return Object.class;
    }

    /** What a parameterized bean type binds its class's type variables to ({@code Page<User>}: T = User). */
    static Map<TypeVariable<?>, Type> bindings(Type type, Class<?> raw) {
        if (!(type instanceof ParameterizedType p)) {
            return Map.of();
        }
        TypeVariable<?>[] vars = raw.getTypeParameters();
        Map<TypeVariable<?>, Type> bound = new HashMap<>();
        for (int i = 0; i < vars.length && i < p.getActualTypeArguments().length; i++) {
            bound.put(vars[i], p.getActualTypeArguments()[i]);
        }
        return bound;
    }
}
