package io.kestrel.rpc.core.internal.generic;

import io.kestrel.rpc.api.ClassNotAllowedException;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Supplier;

/**
 * Converts a plain tree to a declared type. Only the declared types are ever created: the type a
 * method or field declares, the element types its type arguments declare, and for the collection and
 * map interfaces a fixed JDK implementation. Nothing the tree names is looked up: a map with a key that
 * names a class ({@link #CLASS_KEYS}) is refused, and so is a declared type that is an interface or
 * abstract class (other than the collections and maps) or a JDK class outside the known value types.
 * Every class is checked against the allowlist before it is created or its enum constants are read.
 * Thread-safe.
 */
public final class TreeReader {
    /** Keys that name a class in JSON dialects (fastjson, Jackson, Dubbo's PojoUtils, .NET): always refused. */
    public static final Set<String> CLASS_KEYS = Set.of("class", "@type", "@class", "$type", "$class", "__type",
            "__class", "@c", "javaClass");

    private static final Map<Class<?>, Supplier<Collection<Object>>> COLLECTIONS = Map.ofEntries(
            Map.entry(Collection.class, ArrayList::new), Map.entry(Iterable.class, ArrayList::new),
            Map.entry(List.class, ArrayList::new), Map.entry(ArrayList.class, ArrayList::new),
            Map.entry(LinkedList.class, LinkedList::new), Map.entry(Set.class, LinkedHashSet::new),
            Map.entry(HashSet.class, HashSet::new), Map.entry(LinkedHashSet.class, LinkedHashSet::new),
            Map.entry(SortedSet.class, TreeSet::new), Map.entry(NavigableSet.class, TreeSet::new),
            Map.entry(TreeSet.class, TreeSet::new), Map.entry(Queue.class, ArrayDeque::new),
            Map.entry(Deque.class, ArrayDeque::new), Map.entry(ArrayDeque.class, ArrayDeque::new));
    private static final Map<Class<?>, Supplier<Map<Object, Object>>> MAPS = Map.of(
            Map.class, LinkedHashMap::new, HashMap.class, HashMap::new, LinkedHashMap.class, LinkedHashMap::new,
            SortedMap.class, TreeMap::new, NavigableMap.class, TreeMap::new, TreeMap.class, TreeMap::new,
            ConcurrentMap.class, ConcurrentHashMap::new, ConcurrentHashMap.class, ConcurrentHashMap::new);

    private final ClassAllowlist allowlist;

    public TreeReader(ClassAllowlist allowlist) {
        this.allowlist = allowlist;
    }

    /**
     * The value of {@code type} that {@code tree} describes.
     *
     * @param path where the tree is, for messages ("argument 0 (user)")
     * @throws IllegalArgumentException naming the path and the problem when the tree does not fit, a class is
     *     named, or a class is not allowed ({@link ClassNotAllowedException})
     */
    public Object read(Object tree, Type type, String path) {
        return read(tree, type, path, TreeWalk.unbounded());
    }

    /** As {@link #read(Object, Type, String)}, counting the nodes in {@code walk}, within its limits and deadline. */
    public Object read(Object tree, Type type, String path, TreeWalk walk) {
        return read(tree, type, TreePath.root(path), Map.of(), walk);
    }

    private Object read(Object tree, Type type, TreePath path, Map<TypeVariable<?>, Type> bound, TreeWalk walk) {
        if (type instanceof TypeVariable<?> v) {
            Type actual = bound.get(v);
            return read(tree, actual != null ? actual : v.getBounds()[0], path, Map.of(), walk);
        }
        if (type instanceof WildcardType w) {
            return read(tree, w.getUpperBounds()[0], path, bound, walk);
        }
        if (type instanceof GenericArrayType g) {
            walk.visit(path);
            return array(tree, g.getGenericComponentType(), DeclaredTypes.raw(g.getGenericComponentType(), bound), path,
                    bound, walk);
        }
        Class<?> raw = DeclaredTypes.raw(type, bound);
        if (raw != Object.class) {
            walk.visit(path); // an Object's tree is counted by its plain-tree check below
        }
        if (tree == null) {
            if (raw.isPrimitive()) {
                throw new TreeException(path, "null for the primitive " + raw.getName());
            }
            return raw == Optional.class ? Optional.empty() : null;
        }
        if (raw == Object.class) {
            return PlainTree.checked(tree, path, walk); // passed on as the plain tree it is: nothing is created
        }
        if (raw == boolean.class || raw == Boolean.class) {
            if (tree instanceof Boolean) {
                return tree;
            }
            if ("true".equals(tree) || "false".equals(tree)) {
                return Boolean.valueOf((String) tree);
            }
            throw mismatch(path, "a boolean", tree);
        }
        if (TypeShapes.NUMBERS.contains(raw)) {
            return Numbers.convert(tree, raw, path, walk.limits());
        }
        if (raw == String.class) {
            if (tree instanceof String) {
                return tree;
            }
            throw mismatch(path, "a string", tree);
        }
        if (raw.isEnum()) {
            return enumConstant(tree, raw, path);
        }
        if (TypeShapes.TEXT.contains(raw) || TypeShapes.DATES.contains(raw)) {
            return TextValues.read(tree, raw, path);
        }
        if (raw == byte[].class) {
            if (tree instanceof String s) {
                try {
                    return Base64.getDecoder().decode(s);
                } catch (IllegalArgumentException e) {
                    throw new TreeException(path, "a byte[] is written as Base64, and this is not: " + e.getMessage());
                }
            }
            return array(tree, byte.class, byte.class, path, bound, walk);
        }
        if (raw == char[].class && tree instanceof String s) {
            return s.toCharArray(); // as TreeWriter writes it
        }
        if (raw.isArray()) {
            return array(tree, raw.getComponentType(), raw.getComponentType(), path, bound, walk);
        }
        if (raw == Optional.class) {
            return Optional.ofNullable(read(tree, DeclaredTypes.argument(type, 0), path, bound, walk));
        }
        if (COLLECTIONS.containsKey(raw)) {
            if (!(tree instanceof List<?> list)) {
                throw mismatch(path, "a list", tree);
            }
            Type element = DeclaredTypes.argument(type, 0);
            Collection<Object> out = COLLECTIONS.get(raw).get();
            walk.enter(list, path);
            for (int i = 0; i < list.size(); i++) {
                out.add(read(list.get(i), element, path.index(i), bound, walk));
            }
            walk.exit(list);
            return out;
        }
        if (MAPS.containsKey(raw)) {
            if (!(tree instanceof Map<?, ?> map)) {
                throw mismatch(path, "a map", tree);
            }
            refuseClassKeys(map, raw, path);
            Type keyType = DeclaredTypes.argument(type, 0);
            Type valueType = DeclaredTypes.argument(type, 1);
            Map<Object, Object> out = MAPS.get(raw).get();
            walk.enter(map, path);
            for (Map.Entry<?, ?> e : map.entrySet()) {
                TreePath where = path.key(e.getKey());
                out.put(read(e.getKey(), keyType, where.suffix(" (key)"), bound, walk),
                        read(e.getValue(), valueType, where, bound, walk));
            }
            walk.exit(map);
            return out;
        }
        if (raw == Class.class || ClassLoader.class.isAssignableFrom(raw)) {
            throw new TreeException(path, "the declared type " + raw.getName() + " would load a class the caller names;"
                    + " generic invocation never does");
        }
        if (!TypeShapes.isBean(raw)) {
            throw new TreeException(path, "the declared type " + raw.getTypeName() + " is "
                    + (raw.isInterface() ? "an interface" : java.lang.reflect.Modifier.isAbstract(raw.getModifiers())
                    ? "an abstract class" : "not a class generic invocation builds from a tree")
                    + "; generic invocation creates only the concrete classes a signature declares (beans, records,"
                    + " enums, JDK values, collections and maps), never one the caller chooses");
        }
        if (!(tree instanceof Map<?, ?> map)) {
            throw mismatch(path, "a map of the properties of " + raw.getName(), tree);
        }
        walk.enter(map, path);
        Object bean = bean(map, type, raw, path, walk);
        walk.exit(map);
        return bean;
    }

    private Object bean(Map<?, ?> map, Type type, Class<?> raw, TreePath path, TreeWalk walk) {
        refuseClassKeys(map, raw, path);
        allowlist.check(raw.getName());
        Map<TypeVariable<?>, Type> bound = DeclaredTypes.bindings(type, raw);
        Map<String, BeanProperties.Property> properties = BeanProperties.of(raw);
        for (Object key : map.keySet()) {
            if (!properties.containsKey(key)) {
                throw new TreeException(path, raw.getName() + " has no property '" + PlainTree.excerpt(String.valueOf(key))
                        + "'; it has " + properties.keySet() + PlainTree.suggestion(String.valueOf(key),
                        List.copyOf(properties.keySet())));
            }
        }
        try {
            if (raw.isRecord()) {
                RecordComponent[] components = raw.getRecordComponents();
                Object[] values = new Object[components.length];
                Class<?>[] types = new Class<?>[components.length];
                for (int i = 0; i < components.length; i++) {
                    RecordComponent c = components[i];
                    types[i] = c.getType();
                    Object value = map.get(c.getName());
                    values[i] = value == null && c.getType().isPrimitive()
                            ? Array.get(Array.newInstance(c.getType(), 1), 0) // a missing primitive is its zero
                            : read(value, c.getGenericType(), path.key(c.getName()), bound, walk);
                }
                Constructor<?> canonical = raw.getDeclaredConstructor(types);
                canonical.setAccessible(true);
                return canonical.newInstance(values);
            }
            Constructor<?> noArgs;
            try {
                noArgs = raw.getDeclaredConstructor();
            } catch (NoSuchMethodException e) {
                throw new TreeException(path, raw.getName() + " has no no-arg constructor; generic invocation builds"
                        + " classes through one (records through their canonical constructor)");
            }
            noArgs.setAccessible(true);
            Object bean = noArgs.newInstance();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                BeanProperties.Property p = properties.get(e.getKey());
                if (e.getValue() == null && p.field().getType().isPrimitive()) {
                    continue;
                }
                p.field().set(bean, read(e.getValue(), p.type(), path.key(p.name()), bound, walk));
            }
            return bean;
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw new TreeException(path, "the constructor of " + raw.getName() + " refused the values: "
                    + PlainTree.excerpt(String.valueOf(e.getCause())));
        } catch (ReflectiveOperationException e) {
            throw new TreeException(path, "cannot build " + raw.getName() + ": " + e);
        }
    }

    private static void refuseClassKeys(Map<?, ?> map, Class<?> declared, TreePath path) {
        for (Object key : map.keySet()) {
            if (!(key instanceof String)) {
                throw new TreeException(path, "map keys are strings in a tree, this one is a " + PlainTree.typeOf(key));
            }
            if (CLASS_KEYS.contains(key)) {
                throw new TreeException(path, "the key '" + key + "' names a class (" + PlainTree.describe(map.get(key))
                        + "); generic invocation never creates a class the caller names, it builds the declared type "
                        + declared.getTypeName() + ". Remove the key");
            }
        }
    }

    private Object array(Object tree, Type component, Class<?> rawComponent, TreePath path,
            Map<TypeVariable<?>, Type> bound, TreeWalk walk) {
        if (!(tree instanceof List<?> list)) {
            throw mismatch(path, "a list", tree);
        }
        if (!rawComponent.isPrimitive()) {
            allowlist.check(rawComponent.getName());
        }
        Object out = Array.newInstance(rawComponent, list.size());
        walk.enter(list, path);
        for (int i = 0; i < list.size(); i++) {
            Array.set(out, i, read(list.get(i), component, path.index(i), bound, walk));
        }
        walk.exit(list);
        return out;
    }

    private Object enumConstant(Object tree, Class<?> raw, TreePath path) {
        if (!(tree instanceof String name)) {
            throw mismatch(path, "the name of a constant of " + raw.getName(), tree);
        }
        allowlist.check(raw.getName());
        for (Object constant : raw.getEnumConstants()) {
            if (((Enum<?>) constant).name().equals(name)) {
                return constant;
            }
        }
        throw new TreeException(path, "'" + PlainTree.excerpt(name) + "' is not a constant of " + raw.getName() + "; it has "
                + Arrays.toString(raw.getEnumConstants()));
    }

    static TreeException mismatch(TreePath path, String expected, Object tree) {
        return new TreeException(path, "expected " + expected + ", got " + PlainTree.describe(tree));
    }

    static BigDecimal decimal(Object n) {
        return n instanceof BigDecimal d ? d : n instanceof BigInteger i ? new BigDecimal(i) : new BigDecimal(n.toString());
    }
}
