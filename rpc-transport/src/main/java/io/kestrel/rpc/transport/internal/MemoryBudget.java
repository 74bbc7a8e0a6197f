package io.kestrel.rpc.transport.internal;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A provider-wide budget of bytes held for requests (from their header until their call is done)
 * and for responses (from being queued until written to the socket).
 *
 * <p>Requests whose body has not fully arrived draw on at most half of it: peers trickling frames
 * can hold no more than that, and complete requests (small calls arrive whole) still find room. A
 * request that does not fit is refused; responses are always counted, so a budget full of unread
 * responses refuses new work until they drain. Thread-safe.
 */
public final class MemoryBudget {
    private final long limit;
    private final AtomicLong used = new AtomicLong();
    private final AtomicLong partial = new AtomicLong();

    public MemoryBudget(long limit) {
        this.limit = limit;
    }

    /** Takes {@code bytes} for a request that has fully arrived, if they fit. */
    public boolean tryAcquire(long bytes) {
        return take(used, bytes, limit);
    }

    /** Takes {@code bytes} for a request still arriving, if they fit in the share for those. */
    public boolean tryAcquirePartial(long bytes) {
        return take(partial, bytes, limit / 2);
    }

    /** The request taken by {@link #tryAcquirePartial} has fully arrived. */
    public void completed(long bytes) {
        partial.addAndGet(-bytes);
        used.addAndGet(bytes);
    }

    private boolean take(AtomicLong counter, long bytes, long cap) {
        while (true) {
            long mine = counter.get();
            if (mine + bytes > cap || used.get() + partial.get() + bytes > limit) {
                return false;
            }
            if (counter.compareAndSet(mine, mine + bytes)) {
                return true;
            }
        }
    }

    /** Takes {@code bytes} whether they fit or not (memory already in use). */
    public void forceAcquire(long bytes) {
        used.addAndGet(bytes);
    }

    /** Gives back bytes of a request that had fully arrived, or of a response. */
    public void release(long bytes) {
        used.addAndGet(-bytes);
    }

    /** Gives back bytes of a request that never fully arrived. */
    public void releasePartial(long bytes) {
        partial.addAndGet(-bytes);
    }

    /** Bytes held now, by requests (arrived or arriving) and responses. */
    public long used() {
        return used.get() + partial.get();
    }

    public long limit() {
        return limit;
    }
}
