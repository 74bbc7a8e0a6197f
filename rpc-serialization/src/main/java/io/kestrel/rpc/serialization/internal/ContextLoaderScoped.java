package io.kestrel.rpc.serialization.internal;

import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One engine (a configured serialization library instance, with its caches) per thread context
 * class loader, so that a reader whose classes live in another class loader resolves names through
 * that loader. Engines cache classes by name, so one engine must never serve two loaders.
 *
 * <p>The engine for the loader that was the context loader at construction (the "home" loader) is
 * built eagerly and returned on the fast path (one reference comparison). Engines for other context
 * loaders are built on first use and kept, at most {@value #MAX_OTHER_LOADERS} of them; beyond that
 * an arbitrary one is dropped (and rebuilt if needed again). Kept engines hold their loader strongly.
 *
 * <p>The factory receives the context loader and the home loader: engines resolve a name through the
 * context loader first and fall back to the home loader, so a thread whose context loader cannot see
 * the application's classes still works as before. Every resolution goes through the allowlist
 * ({@link AllowlistClassLoader}). Thread-safe. Not part of the public API.
 *
 * @param <T> the engine type
 */
public final class ContextLoaderScoped<T> {
    /** Engines kept for context loaders other than the home loader. */
    public static final int MAX_OTHER_LOADERS = 16;

    private static final Logger log = LoggerFactory.getLogger(ContextLoaderScoped.class);

    private final BiFunction<ClassLoader, ClassLoader, T> factory;
    private final ClassLoader home;
    private final T homeEngine;
    private final Map<ClassLoader, T> others = new ConcurrentHashMap<>();

    /**
     * @param factory builds an engine from (context loader, home loader); called once eagerly for the
     *     home loader (with both arguments the same) and lazily for other context loaders
     */
    public ContextLoaderScoped(BiFunction<ClassLoader, ClassLoader, T> factory) {
        this.factory = Objects.requireNonNull(factory, "factory");
        this.home = AllowlistClassLoader.defaultParent();
        this.homeEngine = factory.apply(home, home);
    }

    /** The engine for the calling thread's context class loader. */
    public T current() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        if (context == null || context == home) {
            return homeEngine;
        }
        T engine = others.get(context);
        if (engine != null) {
            return engine;
        }
        if (others.size() >= MAX_OTHER_LOADERS) {
            Iterator<ClassLoader> it = others.keySet().iterator();
            if (it.hasNext()) {
                ClassLoader dropped = it.next();
                others.remove(dropped);
                log.warn("More than {} context class loaders use one serializer; dropped the engine for {}",
                        MAX_OTHER_LOADERS, dropped);
            }
        }
        return others.computeIfAbsent(context, l -> {
            log.debug("Building a serialization engine for context class loader {}", l);
            return factory.apply(l, home);
        });
    }

    /** The engine for the home loader (the context loader at construction). */
    public T home() {
        return homeEngine;
    }

    /** Every engine built so far, the home engine first. */
    public Iterable<T> all() {
        java.util.List<T> all = new java.util.ArrayList<>();
        all.add(homeEngine);
        all.addAll(others.values());
        return all;
    }
}
