package io.kestrel.rpc.api.spi;

import java.net.URL;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;

/**
 * The implementations of one {@link ExtensionPoint} found in one class loader, each under its short
 * name. Immutable once built; obtained from {@link ExtensionPoint#installed()}. Thread-safe.
 *
 * <p>{@link #get} returns the instance created at loading, shared by every caller (right for stateless
 * factories such as serializations); {@link #create} returns a new instance each time (for
 * implementations with per-user state, such as round-robin counters).
 *
 * @param <S> the extension interface
 */
public final class Extensions<S> {
    private final ExtensionPoint<S> point;
    private final ClassLoader loader;
    private final Map<String, ServiceLoader.Provider<S>> providers;
    private final Map<String, S> shared;

    Extensions(ExtensionPoint<S> point, ClassLoader loader, ServiceLoader<S> serviceLoader) {
        this.point = point;
        this.loader = loader;
        Map<String, ServiceLoader.Provider<S>> providers = new LinkedHashMap<>();
        Map<String, S> shared = new LinkedHashMap<>();
        try {
            serviceLoader.stream().forEach(provider -> {
                S instance = provider.get();
                String name = point.nameOf(instance);
                if (name.isEmpty()) {
                    throw new IllegalStateException(point.kind() + " " + describe(provider.type())
                            + " has an empty name; give it a short name");
                }
                S clash = shared.putIfAbsent(name, instance);
                if (clash != null) {
                    throw new IllegalStateException("Two " + point.kind() + " implementations are named '" + name
                            + "': " + describe(clash.getClass()) + " and " + describe(provider.type())
                            + "; names must be unique. Remove one of the jars, or drop one class from its "
                            + servicesFile());
                }
                providers.put(name, provider);
            });
        } catch (ServiceConfigurationError e) {
            throw new IllegalStateException("Cannot load the " + point.kind() + " implementations listed in "
                    + servicesFile() + " (class loader " + loader + "): " + e.getMessage(), e);
        }
        this.providers = Collections.unmodifiableMap(providers);
        this.shared = Collections.unmodifiableMap(shared);
    }

    /**
     * The shared instance named {@code name} (case-insensitive, trimmed).
     *
     * @throws IllegalArgumentException for an unknown name: the message lists the known names, suggests
     *     a close one, and ends with the extension point's hint
     */
    public S get(String name) {
        S s = shared.get(ExtensionPoint.normalize(name));
        if (s == null) {
            throw unknown(name);
        }
        return s;
    }

    /**
     * A new instance of the implementation named {@code name}, created with its public no-arg
     * constructor (or its {@code provider()} method).
     *
     * @throws IllegalArgumentException for an unknown name, as {@link #get}
     */
    public S create(String name) {
        ServiceLoader.Provider<S> p = providers.get(ExtensionPoint.normalize(name));
        if (p == null) {
            throw unknown(name);
        }
        return p.get();
    }

    /** The shared instance named {@code name}, or empty. */
    public Optional<S> find(String name) {
        return Optional.ofNullable(shared.get(ExtensionPoint.normalize(name)));
    }

    /** The known names, sorted. */
    public Set<String> names() {
        return Collections.unmodifiableSet(new TreeSet<>(shared.keySet()));
    }

    /** The shared instances in the order {@link ServiceLoader} found them. */
    public List<S> all() {
        return List.copyOf(shared.values());
    }

    /** The class loader these were loaded with. */
    public ClassLoader loader() {
        return loader;
    }

    /**
     * The error for a name nobody registered: {@code Unknown load balancer 'round-robin'; known:
     * [consistenthash, leastactive, random, roundrobin]; did you mean 'roundrobin'? <hint>}.
     */
    public IllegalArgumentException unknown(String name) {
        String suggestion = closest(ExtensionPoint.normalize(name)).map(c -> "; did you mean '" + c + "'?").orElse(".");
        String advice = point.hint().isEmpty()
                ? "Plug-ins are listed in " + servicesFile() + " on the classpath" : point.hint();
        Set<String> known = new TreeSet<>();
        shared.values().forEach(s -> known.add(point.listed(s)));
        return new IllegalArgumentException("Unknown " + point.kind() + " '" + name + "'; known: " + known + suggestion
                + " " + advice);
    }

    private Optional<String> closest(String wanted) {
        return io.kestrel.rpc.api.internal.NearestName.closest(wanted, shared.keySet());
    }

    /** Edits (insert, delete, replace, swap two neighbours) turning {@code a} into {@code b}. */
    static int distance(String a, String b) {
        return io.kestrel.rpc.api.internal.NearestName.distance(a, b);
    }

    private String servicesFile() {
        return "META-INF/services/" + point.spi().getName();
    }

    private static String describe(Class<?> type) {
        CodeSource source = type.getProtectionDomain() == null ? null : type.getProtectionDomain().getCodeSource();
        URL location = source == null ? null : source.getLocation();
        return type.getName() + (location == null ? "" : " (from " + location + ")");
    }

    @Override
    public String toString() {
        return point.kind() + " " + names();
    }
}
