package io.kestrel.rpc.perf.report;

import io.kestrel.rpc.perf.support.Workload;

/**
 * The outcome of one configuration (system x workload). Latencies in microseconds; per-call figures
 * are averages over the calls of the measured window. {@code NaN} where a figure is unknown.
 *
 * @param system system name
 * @param workload workload
 * @param status OK, FAILED (see {@code note}) or SKIPPED (not runnable here, see {@code note})
 * @param note first error, reason for skipping, or empty
 * @param threads client threads
 * @param calls successful calls in the measured window
 * @param errors failed calls during warm-up and measurement together
 * @param tps calls per second in the measured window
 * @param meanMicros mean latency
 * @param p50Micros median latency
 * @param p99Micros 99th percentile latency
 * @param p999Micros 99.9th percentile latency
 * @param maxMicros largest latency
 * @param requestBytesPerCall bytes the client wrote to sockets per call
 * @param responseBytesPerCall bytes the client read from sockets per call
 * @param argumentBytes the argument in the system's own encoding (serialized or JSON body), -1 if unknown
 * @param clientAllocPerCall bytes allocated by all client JVM threads per call
 * @param serverAllocPerCall bytes allocated by all server JVM threads per call
 * @param ratioToRaw TPS divided by the raw Netty TPS of the same workload in this run
 */
public record RunResult(String system, Workload workload, Status status, String note, int threads, long calls,
        long errors, double tps, double meanMicros, double p50Micros, double p99Micros, double p999Micros,
        double maxMicros, double requestBytesPerCall, double responseBytesPerCall, long argumentBytes,
        double clientAllocPerCall, double serverAllocPerCall, double ratioToRaw) {

    /** Whether a configuration ran, failed or was skipped. */
    public enum Status {
        OK,
        FAILED,
        SKIPPED
    }

    /** A configuration that did not run at all. */
    public static RunResult notRun(String system, Workload workload, Status status, String note, int threads) {
        double n = Double.NaN;
        return new RunResult(system, workload, status, note, threads, 0, status == Status.FAILED ? 1 : 0, n, n, n,
                n, n, n, n, n, -1, n, n, n);
    }

    /** This result with its ratio to the raw Netty TPS of the same workload. */
    public RunResult withRatioToRaw(double rawTps) {
        double ratio = rawTps > 0 && status == Status.OK ? tps / rawTps : Double.NaN;
        return new RunResult(system, workload, status, note, threads, calls, errors, tps, meanMicros, p50Micros,
                p99Micros, p999Micros, maxMicros, requestBytesPerCall, responseBytesPerCall, argumentBytes,
                clientAllocPerCall, serverAllocPerCall, ratio);
    }

    /** Request bytes per call beyond the argument itself: headers, method names, framing. */
    public double requestOverheadBytes() {
        return argumentBytes < 0 ? Double.NaN : requestBytesPerCall - argumentBytes;
    }
}
