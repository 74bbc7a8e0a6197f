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
 * @param threads client threads: synchronous callers, or the caller threads of a pipelined run
 * @param inflight calls each pipelined run keeps in flight (all caller threads together), 0 for the
 *     synchronous runs
 * @param calls successful calls in the measured window (pipelined: calls that completed in it)
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
public record RunResult(String system, Workload workload, Status status, String note, int threads, int inflight,
        long calls,
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
        return notRun(system, workload, status, note, threads, 0);
    }

    /** A configuration that did not run at all, pipelined with {@code inflight} calls (0: synchronous). */
    public static RunResult notRun(String system, Workload workload, Status status, String note, int threads,
            int inflight) {
        double n = Double.NaN;
        return new RunResult(system, workload, status, note, threads, inflight, 0, status == Status.FAILED ? 1 : 0, n, n, n,
                n, n, n, n, n, -1, n, n, n);
    }

    /** This result with its ratio to the raw Netty TPS of the same workload. */
    public RunResult withRatioToRaw(double rawTps) {
        double ratio = rawTps > 0 && status == Status.OK ? tps / rawTps : Double.NaN;
        return new RunResult(system, workload, status, note, threads, inflight, calls, errors, tps, meanMicros,
                p50Micros,
                p99Micros, p999Micros, maxMicros, requestBytesPerCall, responseBytesPerCall, argumentBytes,
                clientAllocPerCall, serverAllocPerCall, ratio);
    }

    /** Whether this is a pipelined run (calls kept in flight by a few threads) rather than a synchronous one. */
    public boolean pipelined() {
        return inflight > 0;
    }

    /** Request bytes per call beyond the argument itself: headers, method names, framing. */
    public double requestOverheadBytes() {
        return argumentBytes < 0 ? Double.NaN : requestBytesPerCall - argumentBytes;
    }
}
