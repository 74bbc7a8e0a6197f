package io.kestrel.rpc.api.internal;

import java.util.concurrent.ConcurrentHashMap;

/**
 * A cache for keys that come from the wire (class names read from a stream): it never holds more
 * than its capacity. When full, a new key empties it first, so entries in use come back at their
 * next lookup while a stream of distinct keys costs at most {@code capacity} entries. No lock on the
 * read path. Thread-safe. Not part of the public API.
 */
public final class BoundedCache<K, V> {
    private final int capacity;
    private final ConcurrentHashMap<K, V> map;

    public BoundedCache(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, was " + capacity);
        }
        this.capacity = capacity;
        this.map = new ConcurrentHashMap<>(Math.min(capacity, 256));
    }

    /** The value cached for {@code key}, or null. */
    public V get(K key) {
        return map.get(key);
    }

    /** Caches {@code value} (not null) for {@code key}, emptying the cache first if it is full. */
    public void put(K key, V value) {
        if (map.size() >= capacity && !map.containsKey(key)) {
            map.clear();
        }
        map.put(key, value);
    }

    /** Entries held now; never more than the capacity (plus, briefly, one per thread racing a clear). */
    public int size() {
        return map.size();
    }

    public int capacity() {
        return capacity;
    }
}
