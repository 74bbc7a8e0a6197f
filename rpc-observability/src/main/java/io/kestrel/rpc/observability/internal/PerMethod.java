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
 * <p>Bounded: beyond {@value #MAX_ENTRIES} entries (a runaway number of services or versions) values
 * are built per call and not kept, so memory stays bounded whatever the callers do.
 */
public final class PerMethod<V> {
    static final int MAX_ENTRIES = 10_000;

    private final Function<CallInfo, V> factory;
    private final ConcurrentMap<Method, Entry<V>[]> byMethod = new ConcurrentHashMap<>();
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
        Entry<V>[] entries = byMethod.get(method);
        if (entries != null) {
            for (Entry<V> e : entries) {
                if (e.matches(service, serialization)) {
                    return e.value;
                }
            }
        }
        return added(call, method, service, serialization);
    }

    @SuppressWarnings("unchecked")
    private synchronized V added(CallInfo call, Method method, ServiceKey service, String serialization) {
        Entry<V>[] entries = byMethod.get(method);
        if (entries != null) {
            for (Entry<V> e : entries) {
                if (e.matches(service, serialization)) {
                    return e.value;
                }
            }
        }
        V value = factory.apply(call);
        if (this.entries >= MAX_ENTRIES) {
            return value;
        }
        Entry<V>[] more = entries == null ? new Entry[1] : Arrays.copyOf(entries, entries.length + 1);
        more[more.length - 1] = new Entry<>(service, serialization, value);
        byMethod.put(method, more);
        this.entries++;
        return value;
    }

    private record Entry<V>(ServiceKey service, String serialization, V value) {
        boolean matches(ServiceKey s, String ser) {
            // the same objects on every call of a reference or service: identity first, equals for the rest
            return (service == s || service.equals(s)) && (serialization == ser || Objects.equals(serialization, ser));
        }
    }
}
