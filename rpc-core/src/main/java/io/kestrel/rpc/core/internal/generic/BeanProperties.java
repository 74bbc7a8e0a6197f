package io.kestrel.rpc.core.internal.generic;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The properties a bean or record carries as a tree, the same list for reading, writing and metadata: a
 * record's components; a class's non-static, non-transient fields, superclass first. Looked up once per class.
 */
final class BeanProperties {
    private static final Map<Class<?>, Map<String, Property>> CACHE = new ConcurrentHashMap<>();

    /** One property: its name, declared type and how to read (and, for classes, write) it. */
    record Property(String name, Type type, Field field, RecordComponent component) {
        Object get(Object bean) throws ReflectiveOperationException {
            return component != null ? component.getAccessor().invoke(bean) : field.get(bean);
        }
    }

    private BeanProperties() {
    }

    /** The properties of {@code type} in declaration order (superclass first); unmodifiable. */
    static Map<String, Property> of(Class<?> type) {
        return CACHE.computeIfAbsent(type, BeanProperties::find);
    }

    /**
     * Opens a member for reflection where the module system allows it; where it does not (a class in a named
     * module that does not open its package), reading or writing the property fails naming it, and describing
     * it still works.
     */
    private static void accessible(java.lang.reflect.AccessibleObject member) {
        try {
            member.setAccessible(true);
        } catch (RuntimeException e) {
            // left as it is: see above
        }
    }

    private static Map<String, Property> find(Class<?> type) {
        Map<String, Property> properties = new LinkedHashMap<>();
        if (type.isRecord()) {
            for (RecordComponent c : type.getRecordComponents()) {
                accessible(c.getAccessor());
                properties.put(c.getName(), new Property(c.getName(), c.getGenericType(), null, c));
            }
            return Collections.unmodifiableMap(properties);
        }
        Deque<Class<?>> chain = new ArrayDeque<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            chain.push(c);
        }
        for (Class<?> c : chain) {
            List<Field> fields = new ArrayList<>(List.of(c.getDeclaredFields()));
            for (Field f : fields) {
                int mod = f.getModifiers();
                if (Modifier.isStatic(mod) || Modifier.isTransient(mod) || f.isSynthetic()) {
                    continue;
                }
                accessible(f);
                properties.put(f.getName(), new Property(f.getName(), f.getGenericType(), f, null));
            }
        }
        return Collections.unmodifiableMap(properties);
    }
}
