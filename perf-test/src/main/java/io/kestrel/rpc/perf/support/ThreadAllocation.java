package io.kestrel.rpc.perf.support;

import java.lang.management.ManagementFactory;

/**
 * Heap bytes allocated by this JVM's threads, from {@code com.sun.management.ThreadMXBean}: by the
 * calling thread, or summed over all live threads. The sum covers live threads only: a thread that
 * ends between two readings takes its count with it, so take readings around a window in which the
 * worker threads stay alive.
 */
public final class ThreadAllocation {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    static {
        if (THREADS.isThreadAllocatedMemorySupported() && !THREADS.isThreadAllocatedMemoryEnabled()) {
            THREADS.setThreadAllocatedMemoryEnabled(true);
        }
    }

    private ThreadAllocation() {
    }

    /** Whether the JVM counts allocated bytes per thread. */
    public static boolean isSupported() {
        return THREADS.isThreadAllocatedMemorySupported();
    }

    /** Bytes allocated so far by the calling thread; meaningful only if {@link #isSupported()}. */
    public static long currentThreadAllocatedBytes() {
        return THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    /** Sum of allocated bytes over all live threads, or -1 if the JVM does not support it. */
    public static long totalAllocatedBytes() {
        if (!isSupported()) {
            return -1;
        }
        long[] ids = THREADS.getAllThreadIds();
        long[] allocated = THREADS.getThreadAllocatedBytes(ids);
        long sum = 0;
        for (long a : allocated) {
            if (a > 0) {
                sum += a;
            }
        }
        return sum;
    }
}
