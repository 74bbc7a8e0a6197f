package io.kestrel.rpc.core.internal.shared;

import io.kestrel.rpc.api.serialization.Serialization;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.api.serialization.TypeProblem;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks a service interface against a serialization's known limits ({@link Serialization#problemWith})
 * at export and refer, so a type the serialization cannot carry fails startup instead of every call.
 * Looks at each remote method's parameter and return types (the value type of an asynchronous
 * method), their type arguments and array elements, and the field types of the application classes
 * among them, recursively. Refused types throw, naming the type, where it was found and the installed
 * serializations that have no problem with it; warnings are logged.
 */
public final class SignatureCheck {
    private static final Logger log = LoggerFactory.getLogger(SignatureCheck.class);
    /** At most this many problems are listed in one message. */
    private static final int MAX_LISTED = 5;

    private SignatureCheck() {
    }

    /**
     * @param what "export" or "refer", for the message
     * @param setting where the serialization is chosen, for the message (e.g. "serialization on <rpc:service>")
     * @throws IllegalArgumentException if the serialization refuses a type of the interface
     */
    public static void check(Class<?> serviceInterface, Serialization serialization, String what, String setting) {
        Map<Class<?>, Found> problems = new LinkedHashMap<>();
        Set<Class<?>> seen = new HashSet<>();
        for (Method m : RemoteMethods.of(serviceInterface)) {
            Type[] params = m.getGenericParameterTypes();
            for (int i = 0; i < params.length; i++) {
                walk(params[i], signature(m) + " parameter " + (i + 1), serialization, seen, problems);
            }
            walk(valueType(m.getGenericReturnType()), signature(m) + " return value", serialization, seen, problems);
        }
        if (problems.isEmpty()) {
            return;
        }
        List<Found> refused = problems.values().stream().filter(f -> f.problem.refused()).toList();
        for (Found f : problems.values()) {
            if (!f.problem.refused()) {
                log.warn("{} of {} with {}: {} ({}); calls carrying such values may fail. Alternatives: {}", what,
                        serviceInterface.getName(), serialization.name(), f.problem.reason(), f.where,
                        alternatives(serialization, List.of(f.type)));
            }
        }
        if (!refused.isEmpty()) {
            String listed = refused.stream().limit(MAX_LISTED).map(f -> f.problem.reason() + " (" + f.where + ")")
                    .collect(Collectors.joining("; "));
            throw new IllegalArgumentException("Cannot " + what + " " + serviceInterface.getName() + " with serialization "
                    + serialization.name() + ": " + listed + (refused.size() > MAX_LISTED ? "; and " + (refused.size()
                    - MAX_LISTED) + " more" : "") + ". Every call carrying such a value would fail. Use "
                    + alternatives(serialization, refused.stream().<Class<?>>map(f -> f.type).toList()) + " instead ("
                    + setting + "), or change the type");
        }
    }

    /** A problem and where it was first met. */
    private record Found(Class<?> type, TypeProblem problem, String where) {
    }

    private static void walk(Type root, String where, Serialization s, Set<Class<?>> seen, Map<Class<?>, Found> problems) {
        List<Type> todo = new ArrayList<>(List.of(root));
        List<String> paths = new ArrayList<>(List.of(where));
        while (!todo.isEmpty()) {
            Type t = todo.remove(todo.size() - 1);
            String path = paths.remove(paths.size() - 1);
            if (t instanceof ParameterizedType p) {
                push(todo, paths, p.getRawType(), path);
                for (Type arg : p.getActualTypeArguments()) {
                    push(todo, paths, arg, path);
                }
            } else if (t instanceof GenericArrayType g) {
                push(todo, paths, g.getGenericComponentType(), path);
            } else if (t instanceof WildcardType w) {
                for (Type b : w.getUpperBounds()) {
                    push(todo, paths, b, path);
                }
            } else if (t instanceof TypeVariable<?> v) {
                for (Type b : v.getBounds()) {
                    push(todo, paths, b, path);
                }
            } else if (t instanceof Class<?> c) {
                while (c.isArray()) {
                    c = c.getComponentType();
                }
                if (c.isPrimitive() || c == void.class || !seen.add(c)) {
                    continue;
                }
                Optional<TypeProblem> problem = s.problemWith(c);
                if (problem.isPresent()) {
                    problems.putIfAbsent(c, new Found(c, problem.get(), path));
                    continue;
                }
                if (!c.getName().startsWith("java.") && !c.isInterface() && !c.isEnum()) {
                    for (Class<?> k = c; k != null && k != Object.class && !k.getName().startsWith("java."); k = k.getSuperclass()) {
                        for (Field f : k.getDeclaredFields()) {
                            int mod = f.getModifiers();
                            if (!Modifier.isStatic(mod) && !Modifier.isTransient(mod)) {
                                push(todo, paths, f.getGenericType(), path + ", field " + k.getSimpleName() + "." + f.getName());
                            }
                        }
                    }
                }
            }
        }
    }

    private static void push(List<Type> todo, List<String> paths, Type t, String path) {
        todo.add(t);
        paths.add(path);
    }

    /** The value an asynchronous method's future completes with; the type itself otherwise. */
    private static Type valueType(Type returnType) {
        if (returnType instanceof ParameterizedType p && p.getRawType() instanceof Class<?> raw
                && (CompletionStage.class.isAssignableFrom(raw) || Future.class.isAssignableFrom(raw))) {
            return p.getActualTypeArguments()[0];
        }
        return returnType;
    }

    private static String signature(Method m) {
        return "method " + m.getName() + "(" + java.util.Arrays.stream(m.getParameterTypes()).map(Class::getSimpleName)
                .collect(Collectors.joining(", ")) + ")";
    }

    /** Installed serializations with no problem for any of these types, e.g. "kryo, fastjson2 or fory". */
    private static String alternatives(Serialization current, List<Class<?>> types) {
        List<String> names = new ArrayList<>();
        Serializations installed = Serializations.installed();
        for (String name : installed.names().keySet()) {
            Serialization other = installed.byName(name);
            if (other != current && types.stream().allMatch(t -> other.problemWith(t).isEmpty())) {
                names.add(name);
            }
        }
        if (names.isEmpty()) {
            return "another serialization (none installed here can carry it)";
        }
        if (names.size() == 1) {
            return names.get(0);
        }
        return String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
    }
}
