package io.kestrel.rpc.serialization.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A reusable engine object (a stream, a buffer) kept per platform thread, and lent from a small
 * shared pool to virtual threads. A {@link ThreadLocal} alone is wrong for virtual threads: a
 * business executor of virtual threads starts one per call, so a thread-local engine would be built
 * on every call and dropped after it (kilobytes of garbage per call for a hessian2 stream or a read
 * buffer).
 *
 * <p>Usage: {@code T t = cache.acquire(); boolean keep = false; try { ...; keep = true; } finally
 * { cache.release(t, keep); }} — {@code keep=false} drops an engine that may hold part of a failed
 * value or grew past what an idle thread should keep (on a platform thread, the thread-local is
 * removed; the next {@code acquire} builds a fresh one). Not part of the public API.
 */
public final class PerThread<T> {
    private static final MethodHandle IS_VIRTUAL = isVirtualHandle();

    private final Supplier<T> factory;
    private final ThreadLocal<T> local;
    private final ConcurrentLinkedQueue<T> lent = new ConcurrentLinkedQueue<>();
    private final AtomicInteger idle = new AtomicInteger();
    private final int maxIdle;

    /** @param maxIdle engines kept for virtual threads between calls; more in use at once are built and dropped */
    public PerThread(Supplier<T> factory, int maxIdle) {
        this.factory = factory;
        this.local = ThreadLocal.withInitial(factory);
        this.maxIdle = maxIdle;
    }

    /** As {@link #PerThread(Supplier, int)} keeping four engines per processor for virtual threads. */
    public PerThread(Supplier<T> factory) {
        this(factory, 4 * Runtime.getRuntime().availableProcessors());
    }

    /** This platform thread's engine, or one lent to this virtual thread until {@link #release}. */
    public T acquire() {
        if (!isVirtual(Thread.currentThread())) {
            return local.get();
        }
        T t = lent.poll();
        if (t == null) {
            return factory.get();
        }
        idle.decrementAndGet();
        return t;
    }

    /** Ends a use begun by {@link #acquire}; {@code keep=false} drops the engine. */
    public void release(T t, boolean keep) {
        if (!isVirtual(Thread.currentThread())) {
            if (!keep) {
                local.remove();
            }
            return;
        }
        if (keep && idle.incrementAndGet() <= maxIdle) {
            lent.offer(t);
        } else if (keep) {
            idle.decrementAndGet();
        }
    }

    /** Engines waiting for a virtual thread (for tests). */
    int idleForVirtualThreads() {
        return idle.get();
    }

    static boolean isVirtual(Thread thread) {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invokeExact(thread);
        } catch (Throwable e) {
            return false;
        }
    }

    private static MethodHandle isVirtualHandle() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (ReflectiveOperationException e) {
            return null; // before JDK 21 there are no virtual threads
        }
    }
}
