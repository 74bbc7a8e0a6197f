package io.kestrel.rpc.perf.support;

import java.lang.management.ManagementFactory;

/**
 * Used heap after garbage collection, measured the same way in the consumer and the provider JVM:
 * {@code System.gc()} three times with a 300 ms settle after each, then the heap's used bytes from
 * the memory MXBean. Takes about a second; call it when no load is running.
 */
public final class HeapProbe {
    private static final int ROUNDS = 3;
    private static final long SETTLE_MILLIS = 300;

    private HeapProbe() {
    }

    public static long usedAfterGc() {
        for (int i = 0; i < ROUNDS; i++) {
            System.gc();
            try {
                Thread.sleep(SETTLE_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
