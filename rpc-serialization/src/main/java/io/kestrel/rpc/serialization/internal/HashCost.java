package io.kestrel.rpc.serialization.internal;

import io.kestrel.rpc.api.serialization.DecodeBudget;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the JDK will spend hashing a key (or set element) about to be inserted into a hash-based
 * container, measured before the insertion and charged to the {@link DecodeBudget}'s hash work.
 *
 * <p>The measure follows the JDK's own {@code hashCode} of its content-hashed types: a {@code List} or
 * {@code Set} visits every element, a {@code Map} every key and value, a {@code Map.Entry} its key and
 * value, an {@code Optional} its value; each value visited costs one. Anything else (strings, numbers,
 * arrays, which hash by identity, and non-JDK classes, whose {@code hashCode} is the application's)
 * costs one and is not looked into. Shared parts are counted each time they are reached, as
 * {@code hashCode} reaches them, so a small graph of sets sharing their members ("SerialDOS") shows its
 * exponential cost here. The walk stops as soon as the budget's remaining hash work is exceeded, so it
 * never costs more than the budget allows (a key that contains itself is refused the same way, where
 * the JDK would overflow its stack). Not part of the public API.
 */
public final class HashCost {
    private HashCost() {
    }

    /** Charges the hash cost of {@code key} to {@code budget}, refusing before the JDK does the work. */
    public static void charge(DecodeBudget budget, Object key) {
        if (!isContentHashed(key)) {
            budget.chargeHashWork(1);
            return;
        }
        long limit = budget.remainingHashWork();
        long cost = cost(key, limit);
        budget.chargeHashWork(cost); // throws when cost > limit
    }

    /** The cost of hashing {@code key}, or a number above {@code limit} once it exceeds it. */
    static long cost(Object key, long limit) {
        long cost = 0;
        ArrayDeque<Object> pending = new ArrayDeque<>();
        pending.push(key == null ? NULL : key);
        while (!pending.isEmpty()) {
            Object o = pending.pop();
            if (++cost > limit) {
                return cost;
            }
            if (!isContentHashed(o)) {
                continue;
            }
            if (o instanceof Map<?, ?> map) {
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    if (pending.size() + cost > limit) {
                        return limit + 1;
                    }
                    pending.push(orNull(e.getKey()));
                    pending.push(orNull(e.getValue()));
                }
            } else if (o instanceof Collection<?> c) {
                for (Object e : c) {
                    if (pending.size() + cost > limit) {
                        return limit + 1;
                    }
                    pending.push(orNull(e));
                }
            } else if (o instanceof Map.Entry<?, ?> e) {
                pending.push(orNull(e.getKey()));
                pending.push(orNull(e.getValue()));
            } else if (o instanceof Optional<?> opt && opt.isPresent()) {
                pending.push(opt.get());
            }
        }
        return cost;
    }

    private static final Object NULL = new Object();

    private static Object orNull(Object o) {
        return o == null ? NULL : o;
    }

    /** JDK classes whose hashCode is computed from what they hold. */
    private static boolean isContentHashed(Object o) {
        if (o == null || o.getClass().getClassLoader() != null) {
            return false; // not a JDK class: its hashCode is the application's business
        }
        return o instanceof List || o instanceof Set || o instanceof Map || o instanceof Map.Entry
                || o instanceof Optional;
    }

    /** Whether instances of {@code type} hash their keys or elements (and so re-hash what they hold). */
    public static boolean isHashBased(Class<?> type) {
        if (type == null) {
            return false;
        }
        if (java.util.IdentityHashMap.class.isAssignableFrom(type)) {
            return false;
        }
        return java.util.HashMap.class.isAssignableFrom(type) || java.util.HashSet.class.isAssignableFrom(type)
                || java.util.Hashtable.class.isAssignableFrom(type)
                || java.util.concurrent.ConcurrentHashMap.class.isAssignableFrom(type)
                || java.util.WeakHashMap.class.isAssignableFrom(type)
                || type.getName().startsWith("java.util.ImmutableCollections$Set")
                || type.getName().startsWith("java.util.ImmutableCollections$Map");
    }
}
