package io.kestrel.rpc.perf.support;

import java.lang.management.ManagementFactory;

/**
 * CPU time this JVM's process has used, from {@code com.sun.management.OperatingSystemMXBean}: unlike
 * TPS it hardly depends on what else the machine runs, so CPU time per call compares systems even on
 * a loaded machine (cache and scheduling effects aside).
 */
public final class ProcessCpu {
    private ProcessCpu() {
    }

    /** CPU nanoseconds used by this process so far (all threads, user and system), or -1 if unknown. */
    public static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }
}
