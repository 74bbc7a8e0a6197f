package io.kestrel.rpc.observability.internal;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.interceptor.CallInfo;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;

/**
 * A value built once per service, method and serialization (meters, span names, key values) and found
 * again on every call without allocating: a map read by {@link Method}, then a scan of the few
 * (service, serialization) pairs that method is called with. Thread-safe; a race may build a value
 * twice, and one of them is kept.
 *
 * <p>Bounded: a method called through more than {@value #MAX_SCANNED} services or serializations
 * (many versions or groups of one interface) keeps the rest in a map keyed by all three, which costs
 * a small key per call, as do generic calls (found by the called method's name); beyond {@value #MAX_ENTRIES} values in all (a runaway number of services),
 * values are built per call and not kept, so memory stays bounded whatever the callers do.
 */
public final class PerMethod<V> {
    static final int MAX_SCANNED = 16;
    static final int MAX_ENTRIES = 10_000;

    private final Function<CallInfo, V> factory;
    private final ConcurrentMap<Method, Entry<V>[]> byMethod = new ConcurrentHashMap<>();
    private final ConcurrentMap<Key, V> overflow = new ConcurrentHashMap<>();
    private int entries; // guarded by this

    /** @param factory builds the value of a call's service, method and serialization; called rarely */
    public PerMethod(Function<CallInfo, V> factory) {
        this.factory = Objects.requireNonNull(factory, "factory");
    }

    /** The value of this call's service, method and serialization. */
    public V of(CallInfo call) {
        Method method = call.method();
        ServiceKey service = call.service();
        String serialization = call.serialization();
        String name = call.methodName();
        if (name != method.getName() && !name.equals(method.getName())) {
            return named(call, service, name, serialization);
        }
        Entry<V>[] scanned = byMethod.get(method);
        if (scanned != null) {
            V v = find(scanned, service, serialization);
            if (v != null) {
                return v;
            }
            if (scanned.length == MAX_SCANNED) {
                v = overflow.get(new Key(service, method, serialization));
                if (v != null) {
                    return v;
                }
            }
        }
        return added(call, method, service, serialization);
    }

    /**
     * A call whose method travels under another one's name (a generic call is sent as the reserved
     * {@code $invoke} method): found by the called method's name, so each gets its own value.
     */
    private V named(CallInfo call, ServiceKey service, String name, String serialization) {
        Key key = new Key(service, name, serialization);
        V v = overflow.get(key);
        if (v != null) {
            return v;
        }
        synchronized (this) {
            v = overflow.get(key);
            if (v != null) {
                return v;
            }
            v = factory.apply(call);
            if (entries < MAX_ENTRIES) {
                overflow.put(key, v);
                entries++;
            }
            return v;
        }
    }

    private static <V> V find(Entry<V>[] scanned, ServiceKey service, String serialization) {
        for (Entry<V> e : scanned) {
            // the same objects on every call of a reference or service: identity first, equals for the rest
            if ((e.service == service || e.service.equals(service))
                    && (e.serialization == serialization || Objects.equals(e.serialization, serialization))) {
                return e.value;
            }
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private synchronized V added(CallInfo call, Method method, ServiceKey service, String serialization) {
        Entry<V>[] scanned = byMethod.get(method);
        V v = scanned == null ? null : find(scanned, service, serialization);
        Key key = scanned != null && scanned.length == MAX_SCANNED ? new Key(service, method, serialization) : null;
        if (v == null && key != null) {
            v = overflow.get(key);
        }
        if (v != null) {
            return v;
        }
        V value = factory.apply(call);
        if (entries >= MAX_ENTRIES) {
            return value;
        }
        if (key != null) {
            overflow.put(key, value);
        } else {
            Entry<V>[] more = scanned == null ? new Entry[1] : Arrays.copyOf(scanned, scanned.length + 1);
            more[more.length - 1] = new Entry<>(service, serialization, value);
            byMethod.put(method, more);
        }
        entries++;
        return value;
    }

    private record Entry<V>(ServiceKey service, String serialization, V value) {
    }

    /** {@code method}: a {@link Method}, or the name of a method called generically. */
    private record Key(ServiceKey service, Object method, String serialization) {
    }
}
