package io.kestrel.rpc.api.serialization;

import io.kestrel.rpc.api.ClassNotAllowedException;
import io.kestrel.rpc.api.internal.BoundedCache;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Decides which classes a byte stream may name. Every serializer asks it before it loads or
 * instantiates a class; a refused class fails the read with {@link ClassNotAllowedException}.
 *
 * <p>Allowed are:
 * <ul>
 *   <li>the JDK's value types, collections, enums and exceptions (a fixed list, plus any
 *       {@code java.*} class that is an enum or a {@link Throwable});</li>
 *   <li>classes reachable from exported and referenced service interfaces
 *       ({@link #trustTypesOf}), done by the framework on export and refer;</li>
 *   <li>exceptions ({@link Throwable} subclasses) from the same code source (jar or class
 *       directory) as such an interface, with their field types, as Apache Dubbo does: a service's
 *       API jar holds its exceptions, thrown whether or not a method declares them;</li>
 *   <li>classes registered through a {@link SerializationOptimizer};</li>
 *   <li>classes and package prefixes named by the user ({@link #allowPackage}, the protocol's
 *       {@code allowed-packages} setting, or the system property {@value #ALLOW_PROPERTY}).</li>
 * </ul>
 * A short list of well-known deserialization gadget packages stays refused even when a user allows
 * a package that contains them.
 *
 * <p>Thread-safe; additions are visible to all serializers using this instance.
 */
public final class ClassAllowlist {
    /** System property with extra comma-separated class names or package prefixes to allow. */
    public static final String ALLOW_PROPERTY = "kestrel.rpc.serialization.allow";

    private static final Set<String> JDK_CLASSES = Set.of(
            "boolean", "byte", "char", "short", "int", "long", "float", "double", "void",
            "java.lang.Object", "java.lang.String", "java.lang.Boolean", "java.lang.Byte",
            "java.lang.Character", "java.lang.Short", "java.lang.Integer", "java.lang.Long",
            "java.lang.Float", "java.lang.Double", "java.lang.Number", "java.lang.Void",
            "java.lang.Enum", "java.lang.StackTraceElement", "java.lang.Throwable",
            "java.lang.String$CaseInsensitiveComparator",
            "java.math.BigDecimal", "java.math.BigInteger", "java.math.RoundingMode",
            "java.util.ArrayList", "java.util.LinkedList", "java.util.HashMap", "java.util.LinkedHashMap",
            "java.util.TreeMap", "java.util.HashSet", "java.util.LinkedHashSet", "java.util.TreeSet",
            "java.util.ArrayDeque", "java.util.PriorityQueue", "java.util.Vector", "java.util.Stack",
            "java.util.Hashtable", "java.util.IdentityHashMap", "java.util.WeakHashMap",
            "java.util.EnumMap", "java.util.EnumSet", "java.util.RegularEnumSet", "java.util.JumboEnumSet",
            "java.util.Date", "java.util.UUID", "java.util.Optional", "java.util.OptionalInt",
            "java.util.OptionalLong", "java.util.OptionalDouble", "java.util.Locale", "java.util.Currency",
            "java.util.BitSet", "java.util.Calendar", "java.util.GregorianCalendar", "java.util.TimeZone",
            "java.util.SimpleTimeZone", "sun.util.calendar.ZoneInfo",
            "java.util.Arrays$ArrayList",
            "java.util.Collections$EmptyList", "java.util.Collections$EmptySet", "java.util.Collections$EmptyMap",
            "java.util.Collections$SingletonList", "java.util.Collections$SingletonSet",
            "java.util.Collections$SingletonMap", "java.util.Collections$UnmodifiableList",
            "java.util.Collections$UnmodifiableRandomAccessList", "java.util.Collections$UnmodifiableSet",
            "java.util.Collections$UnmodifiableSortedSet", "java.util.Collections$UnmodifiableMap",
            "java.util.Collections$UnmodifiableSortedMap", "java.util.Collections$UnmodifiableCollection",
            "java.util.Collections$SynchronizedList", "java.util.Collections$SynchronizedRandomAccessList",
            "java.util.Collections$SynchronizedSet", "java.util.Collections$SynchronizedMap",
            "java.util.Collections$ReverseComparator", "java.util.Collections$ReverseComparator2",
            "java.util.ImmutableCollections$List12", "java.util.ImmutableCollections$ListN",
            "java.util.ImmutableCollections$Set12", "java.util.ImmutableCollections$SetN",
            "java.util.ImmutableCollections$Map1", "java.util.ImmutableCollections$MapN",
            "java.util.ImmutableCollections$SubList", "java.util.CollSer",
            "java.util.concurrent.ConcurrentHashMap", "java.util.concurrent.ConcurrentLinkedQueue",
            "java.util.concurrent.ConcurrentLinkedDeque", "java.util.concurrent.ConcurrentSkipListMap",
            "java.util.concurrent.ConcurrentSkipListSet", "java.util.concurrent.CopyOnWriteArrayList",
            "java.util.concurrent.CopyOnWriteArraySet",
            "java.util.concurrent.atomic.AtomicBoolean", "java.util.concurrent.atomic.AtomicInteger",
            "java.util.concurrent.atomic.AtomicLong",
            "java.sql.Date", "java.sql.Time", "java.sql.Timestamp",
            "java.net.URI", "java.net.InetSocketAddress");

    private static final List<String> JDK_PACKAGES = List.of("java.time.");

    /** Packages refused even when a user-allowed package covers them: classic gadget chains. */
    private static final List<String> DENIED_PACKAGES = List.of(
            "org.apache.commons.collections.functors.", "org.apache.commons.collections4.functors.",
            "org.apache.xalan.", "com.sun.org.apache.", "org.codehaus.groovy.runtime.", "groovy.lang.",
            "org.springframework.beans.factory.", "org.springframework.aop.", "com.sun.rowset.", "javax.naming.",
            "com.sun.jndi.", "javax.management.", "java.rmi.", "sun.rmi.", "javax.script.", "bsh.", "com.mchange.",
            "org.hibernate.", "net.sf.json.", "org.mozilla.javascript.", "java.lang.reflect.", "java.lang.invoke.",
            "java.beans.", "sun.misc.", "jdk.internal.", "sun.reflect.");

    /** Single classes refused the same way (exact names, and their nested classes). */
    private static final Set<String> DENIED_CLASSES = Set.of(
            "org.apache.commons.beanutils.BeanComparator", "java.lang.Runtime", "java.lang.ProcessBuilder",
            "java.lang.Process", "java.lang.Thread", "java.lang.ThreadGroup", "java.lang.ClassLoader",
            "java.lang.Class", "java.lang.System", "java.net.URL", "java.net.URLClassLoader", "java.io.File",
            "java.io.FileOutputStream", "java.io.FileInputStream");

    private final Set<String> classes = ConcurrentHashMap.newKeySet();
    private final List<String> packages = new CopyOnWriteArrayList<>();
    /**
     * Positive decisions only, bounded: refused names come from the wire and must not grow memory, and
     * neither may allowed ones (any name under an allowed package prefix is allowed, existing or not).
     */
    private final BoundedCache<String, Boolean> allowedCache = new BoundedCache<>(TypeNameLimits.nameCacheSize());
    private final Set<Class<?>> walked = ConcurrentHashMap.newKeySet();
    private final CodeSourceExceptions apiExceptions = new CodeSourceExceptions();

    private ClassAllowlist() {
        // the marker on remote exceptions travels along when a provider passes on what its own call threw
        classes.add(io.kestrel.rpc.api.RemoteOrigin.class.getName());
    }

    /** The JDK defaults plus what the {@value #ALLOW_PROPERTY} system property names. */
    public static ClassAllowlist withDefaults() {
        ClassAllowlist allowlist = new ClassAllowlist();
        String extra = System.getProperty(ALLOW_PROPERTY, "");
        for (String entry : extra.split(",")) {
            if (!entry.isBlank()) {
                allowlist.allowPackage(entry.trim());
            }
        }
        return allowlist;
    }

    /** Allows one class (and arrays of it). */
    public ClassAllowlist allowClass(Class<?> type) {
        classes.add(type.getName());
        return this;
    }

    /**
     * Allows every class whose name starts with {@code prefix} (a package such as
     * {@code "com.example.model"} or an exact class name). A package name without a trailing dot
     * matches that package and its sub-packages, not {@code com.example.modelx}.
     */
    public ClassAllowlist allowPackage(String prefix) {
        if (prefix == null || prefix.isBlank()) {
            throw new IllegalArgumentException("allowed package must be a non-empty name, was '" + prefix + "'");
        }
        String p = prefix.trim();
        packages.add(p);
        return this;
    }

    /**
     * Trusts the classes reachable from a service interface: parameter, return and exception types
     * of its methods, their type arguments, and recursively the field types and superclasses of
     * every non-JDK class among them; and the exceptions of the interface's code source (see the
     * class comment). Called by the framework on export and refer.
     */
    public ClassAllowlist trustTypesOf(Class<?> serviceInterface) {
        apiExceptions.trust(serviceInterface);
        Deque<Type> todo = new ArrayDeque<>();
        for (Method m : serviceInterface.getMethods()) {
            if (m.getDeclaringClass() == Object.class) {
                continue;
            }
            todo.add(m.getGenericReturnType());
            todo.addAll(Arrays.asList(m.getGenericParameterTypes()));
            todo.addAll(Arrays.asList(m.getGenericExceptionTypes()));
        }
        walkAll(todo);
        return this;
    }

    private void walkAll(Deque<Type> todo) {
        while (!todo.isEmpty()) {
            Type t = todo.poll();
            if (t instanceof Class<?> c) {
                walkClass(c, todo);
            } else if (t instanceof ParameterizedType p) {
                todo.add(p.getRawType());
                todo.addAll(Arrays.asList(p.getActualTypeArguments()));
            } else if (t instanceof GenericArrayType g) {
                todo.add(g.getGenericComponentType());
            } else if (t instanceof WildcardType w) {
                todo.addAll(Arrays.asList(w.getUpperBounds()));
                todo.addAll(Arrays.asList(w.getLowerBounds()));
            } else if (t instanceof TypeVariable<?> v) {
                todo.addAll(Arrays.asList(v.getBounds()));
            }
        }
    }

    private void walkClass(Class<?> c, Deque<Type> todo) {
        while (c.isArray()) {
            c = c.getComponentType();
        }
        if (c.isPrimitive() || c.getName().startsWith("java.") || !walked.add(c)) {
            return;
        }
        if (isDenied(c.getName())) {
            return;
        }
        classes.add(c.getName());
        if (c.isEnum()) {
            for (Object constant : c.getEnumConstants()) {
                classes.add(constant.getClass().getName()); // constants with bodies are subclasses
            }
        }
        if (c.getGenericSuperclass() != null) {
            todo.add(c.getGenericSuperclass());
        }
        for (Field f : c.getDeclaredFields()) {
            int mod = f.getModifiers();
            if (!Modifier.isStatic(mod) && !Modifier.isTransient(mod)) {
                todo.add(f.getGenericType());
            }
        }
    }

    /**
     * Whether a class of this name may be deserialized. Array names are judged by their element; a name
     * beyond the {@link TypeNameLimits} (length, array dimensions) is never allowed.
     */
    public boolean isAllowed(String className) {
        if (className == null || className.isEmpty()) {
            return false;
        }
        if (allowedCache.get(className) != null) {
            return true;
        }
        if (!TypeNameLimits.accepts(className)) {
            return false;
        }
        String element = elementName(className);
        if (element == null) {
            return true; // an array of primitives
        }
        boolean allowed = !isDenied(element) && (classes.contains(element) || JDK_CLASSES.contains(element)
                || startsWithAny(element, JDK_PACKAGES) || matchesUserPackage(element) || isJdkEnumOrThrowable(element)
                || isApiException(element));
        if (allowed) {
            allowedCache.put(className, Boolean.TRUE);
        }
        return allowed;
    }

    /**
     * Throws {@link ClassNotAllowedException} naming the class and the settings that would allow it,
     * unless {@link #isAllowed} is true.
     */
    public void check(String className) {
        if (!isAllowed(className)) {
            throw refused(className);
        }
    }

    /** The exception {@link #check} throws, for serializers that detect the refusal themselves. */
    public ClassNotAllowedException refused(String className) {
        ClassNotAllowedException overLimit = className == null ? null : TypeNameLimits.refusal(className);
        if (overLimit != null) {
            return overLimit;
        }
        String element = className == null ? "null" : elementName(className);
        String pkg = element != null && element.lastIndexOf('.') > 0 ? element.substring(0, element.lastIndexOf('.')) : element;
        if (element != null && isDenied(element)) {
            return new ClassNotAllowedException("Refused to deserialize class " + className
                    + ": it is a known deserialization gadget and is never allowed. Nothing was instantiated.");
        }
        return new ClassNotAllowedException("Refused to deserialize class " + className
                + ": it is not on the deserialization allowlist, so nothing was instantiated. "
                + "To allow it, register it in your serialization optimizer, or add its package with "
                + "allowed-packages=\"" + pkg + "\" on <rpc:protocol> (ProtocolConfig.Builder.allowPackage(\"" + pkg
                + "\")) or -D" + ALLOW_PROPERTY + "=" + pkg + ". Types used in service interface signatures are allowed automatically.");
    }

    /** An exception of a trusted interface's code source: allowed, and so are its field types. */
    private boolean isApiException(String name) {
        Class<?> c = apiExceptions.find(name);
        if (c == null) {
            return false;
        }
        walkAll(new ArrayDeque<>(List.of(c)));
        return classes.contains(name);
    }

    private boolean matchesUserPackage(String name) {
        for (String p : packages) {
            if (name.equals(p) || (name.startsWith(p) && (p.endsWith(".") || name.charAt(p.length()) == '.'
                    || name.charAt(p.length()) == '$'))) {
                return true;
            }
        }
        return false;
    }

    private static boolean isDenied(String name) {
        if (startsWithAny(name, DENIED_PACKAGES)) {
            return true;
        }
        int nested = name.indexOf('$');
        return DENIED_CLASSES.contains(nested < 0 ? name : name.substring(0, nested));
    }

    private static boolean startsWithAny(String name, List<String> prefixes) {
        for (String p : prefixes) {
            if (name.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    /** JDK enums and exceptions are harmless values; look them up in the platform loader only. */
    private static boolean isJdkEnumOrThrowable(String name) {
        if (!name.startsWith("java.")) {
            return false;
        }
        try {
            Class<?> c = Class.forName(name, false, ClassLoader.getPlatformClassLoader());
            return c.isEnum() || (c.getSuperclass() != null && c.getSuperclass().isEnum())
                    || Throwable.class.isAssignableFrom(c);
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** "[[Lcom.x.Y;" -> "com.x.Y"; "[I" -> null (primitive array); plain names unchanged. */
    private static String elementName(String name) {
        if (name.charAt(0) != '[') {
            return name;
        }
        int i = 0;
        while (i < name.length() && name.charAt(i) == '[') {
            i++;
        }
        if (i < name.length() && name.charAt(i) == 'L' && name.endsWith(";")) {
            return name.substring(i + 1, name.length() - 1);
        }
        return null;
    }

    /** Names whose positive decision is cached now (bounded by {@link TypeNameLimits#nameCacheSize()}). */
    int cachedDecisions() {
        return allowedCache.size();
    }

    @Override
    public String toString() {
        return "ClassAllowlist{classes=" + classes.size() + ", packages=" + packages + "}";
    }
}
