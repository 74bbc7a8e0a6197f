package io.kestrel.rpc.serialization.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * A small pool of costly engines (a configured kryo and its buffers) shared by all threads, without locks: a
 * fixed number of slots, each taken and given back by one compare-and-set. A thread starts looking at a slot
 * chosen by its id, so the threads that serialize at the same time (callers, an event loop) mostly use slots of
 * their own and do not wait for each other; each slot sits on a cache line of its own. When no slot holds an
 * engine a new one is built; an engine given back when every slot is full is dropped.
 *
 * <p>Kryo's own {@code Pool}, in its thread-safe form, is a {@code LinkedBlockingQueue}: a borrow and a return
 * take up to four locks between them, and a caller thread serializing while the event loop deserializes made
 * them contend (35-40% of a pipelining caller's CPU in a profile of 2026-11-28). Not part of the public API.
 *
 * @param <T> the engine type
 */
public final class EnginePool<T> {
    /** References per cache line of 64 bytes (4-byte compressed references: 16; 8-byte: 8, still apart). */
    private static final int STRIDE = 16;

    private final AtomicReferenceArray<T> slots;
    private final int mask;
    private final Supplier<T> factory;

    /** @param capacity engines kept idle at most (rounded up to a power of two) */
    public EnginePool(int capacity, Supplier<T> factory) {
        if (capacity < 1 || capacity > 1 << 16) {
            throw new IllegalArgumentException("capacity must be 1..65536, was " + capacity);
        }
        int n = Integer.highestOneBit(capacity - 1) << 1;
        this.mask = Math.max(1, n) - 1;
        this.slots = new AtomicReferenceArray<>((mask + 1) * STRIDE);
        this.factory = factory;
    }

    /** An idle engine, or a new one when none is idle. Give it back with {@link #free} (or drop it). */
    public T obtain() {
        int home = home();
        for (int i = 0; i <= mask; i++) {
            int slot = ((home + i) & mask) * STRIDE;
            T t = slots.get(slot);
            if (t != null && slots.compareAndSet(slot, t, null)) {
                return t;
            }
        }
        return factory.get();
    }

    /** Gives back an engine from {@link #obtain}; dropped when the pool is full. */
    public void free(T engine) {
        int home = home();
        for (int i = 0; i <= mask; i++) {
            int slot = ((home + i) & mask) * STRIDE;
            if (slots.get(slot) == null && slots.compareAndSet(slot, null, engine)) {
                return;
            }
        }
    }

    /** Removes and returns the engines idle now (for tests: give them back with {@link #free}). */
    public List<T> takeIdle() {
        List<T> idle = new ArrayList<>();
        for (int i = 0; i <= mask; i++) {
            T t = slots.getAndSet(i * STRIDE, null);
            if (t != null) {
                idle.add(t);
            }
        }
        return idle;
    }

    /** Slots (engines kept idle at most). */
    public int capacity() {
        return mask + 1;
    }

    @SuppressWarnings("deprecation") // Thread.threadId() is JDK 19+; the id is the same
    private int home() {
        long id = Thread.currentThread().getId();
        return (int) (id ^ (id >>> 32)) & mask;
    }
}
