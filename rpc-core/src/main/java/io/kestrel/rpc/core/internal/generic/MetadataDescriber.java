package io.kestrel.rpc.core.internal.generic;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.generic.MethodMetadata;
import io.kestrel.rpc.api.generic.ParameterMetadata;
import io.kestrel.rpc.api.generic.PropertyMetadata;
import io.kestrel.rpc.api.generic.ServiceMetadata;
import io.kestrel.rpc.api.generic.TypeDetails;
import io.kestrel.rpc.api.generic.TypeInfo;
import io.kestrel.rpc.api.generic.TypeKind;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Describes an exported service for {@code $metadata}: its methods, and every bean, record and enum its
 * signatures reach, each described once (a type seen again, or reached from itself, is only referred to by
 * name, so the description is finite for any type graph).
 */
public final class MetadataDescriber {
    private final Map<String, TypeDetails> types = new LinkedHashMap<>();
    /** Type variables being resolved: {@code <T extends List<T>>} would otherwise never end. */
    private final java.util.Set<TypeVariable<?>> resolving = new java.util.HashSet<>();

    private MetadataDescriber() {
    }

    /**
     * @param methods the service's remote methods
     * @param serializations the names of the serializations it accepts, the preferred one first
     */
    public static ServiceMetadata describe(ServiceKey key, List<Method> methods, List<String> serializations) {
        MetadataDescriber d = new MetadataDescriber();
        List<MethodMetadata> described = new ArrayList<>();
        List<Method> sorted = new ArrayList<>(methods);
        sorted.sort(Comparator.comparing(Method::getName).thenComparingInt(Method::getParameterCount)
                .thenComparing(m -> Arrays.toString(m.getParameterTypes())));
        for (Method m : sorted) {
            described.add(d.method(m));
        }
        return new ServiceMetadata(key.interfaceName(), key.version(), key.group(), "", serializations, described,
                d.types);
    }

    private MethodMetadata method(Method m) {
        List<ParameterMetadata> parameters = new ArrayList<>();
        for (Parameter p : m.getParameters()) {
            parameters.add(new ParameterMetadata(p.getName(), p.isNamePresent(), type(p.getParameterizedType())));
        }
        Class<?> returns = m.getReturnType();
        boolean async = returns == CompletableFuture.class || returns == CompletionStage.class;
        Type result = m.getGenericReturnType();
        if (async) {
            result = result instanceof ParameterizedType p ? p.getActualTypeArguments()[0] : Object.class;
        }
        List<String> exceptions = Arrays.stream(m.getExceptionTypes()).map(Class::getName).toList();
        return new MethodMetadata(m.getName(), parameters, type(result), async, exceptions);
    }

    TypeInfo type(Type type) {
        if (type instanceof TypeVariable<?> v) {
            if (!resolving.add(v)) {
                return new TypeInfo(v.getName(), "java.lang.Object", TypeKind.ANY, false, List.of());
            }
            try {
                return type(v.getBounds()[0]);
            } finally {
                resolving.remove(v);
            }
        }
        if (type instanceof WildcardType w) {
            return type(w.getUpperBounds()[0]);
        }
        if (type instanceof GenericArrayType g) {
            TypeInfo element = type(g.getGenericComponentType());
            return new TypeInfo(type.getTypeName(), "[" + arrayElementName(element.className()), TypeKind.COLLECTION,
                    false, List.of(element));
        }
        Class<?> raw = type instanceof ParameterizedType p ? (Class<?>) p.getRawType() : (Class<?>) type;
        TypeKind kind = TypeShapes.kindOf(raw);
        List<TypeInfo> arguments = new ArrayList<>();
        switch (kind) {
            case COLLECTION -> arguments.add(raw.isArray() ? type(raw.getComponentType()) : type(argument(type, 0)));
            case OPTIONAL -> arguments.add(type(argument(type, 0)));
            case MAP -> {
                arguments.add(type(argument(type, 0)));
                arguments.add(type(argument(type, 1)));
            }
            case ENUM -> details(raw, kind);
            case BEAN -> details(raw, kind);
            default -> {
            }
        }
        return new TypeInfo(type.getTypeName(), raw.getName(), kind, raw.isPrimitive(), arguments);
    }

    private void details(Class<?> raw, TypeKind kind) {
        if (types.containsKey(raw.getName())) {
            return;
        }
        if (kind == TypeKind.ENUM) {
            List<String> constants = Arrays.stream(raw.getEnumConstants()).map(c -> ((Enum<?>) c).name()).toList();
            types.put(raw.getName(), new TypeDetails(raw.getName(), kind, false, List.of(), constants));
            return;
        }
        // a placeholder first: properties that lead back here find it and stop
        types.put(raw.getName(), new TypeDetails(raw.getName(), kind, raw.isRecord(), List.of(), List.of()));
        List<PropertyMetadata> properties = new ArrayList<>();
        for (BeanProperties.Property p : BeanProperties.of(raw).values()) {
            properties.add(new PropertyMetadata(p.name(), type(p.type())));
        }
        types.put(raw.getName(), new TypeDetails(raw.getName(), kind, raw.isRecord(), properties, List.of()));
    }

    private static Type argument(Type type, int i) {
        if (type instanceof ParameterizedType p && p.getActualTypeArguments().length > i) {
            return p.getActualTypeArguments()[i];
        }
        return Object.class;
    }

    /** The element part of an array class name: "long" -> "J", "com.x.Y" -> "Lcom.x.Y;", "[J" -> "[J". */
    private static String arrayElementName(String className) {
        if (className.startsWith("[")) {
            return className;
        }
        return switch (className) {
            case "boolean" -> "Z";
            case "byte" -> "B";
            case "char" -> "C";
            case "short" -> "S";
            case "int" -> "I";
            case "long" -> "J";
            case "float" -> "F";
            case "double" -> "D";
            default -> "L" + className + ";";
        };
    }
}
