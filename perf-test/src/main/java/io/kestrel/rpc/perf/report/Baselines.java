package io.kestrel.rpc.perf.report;

import io.kestrel.rpc.perf.compare.system.BenchSystems;
import io.kestrel.rpc.perf.support.Workload;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What each result is read against, looked up in the results of the same run: the minimal RPC of
 * its own serialization ({@code raw-rpc-<serialization>}, same workload, same calls in flight) and,
 * for a pipelined run, the same system's synchronous run of the workload. Only successful results
 * serve as a reference; without one a figure is NaN.
 */
public final class Baselines {
    /** How the TPS of a result compares with that of its reference. */
    interface TpsRatio {
        double of(RunResult r, RunResult reference);
    }

    private final Map<String, RunResult> byKey = new HashMap<>();
    private final TpsRatio tpsRatio;

    /** The references of results measured once each: a ratio is the quotient of their TPS. */
    public Baselines(List<RunResult> results) {
        this(results, (r, reference) -> r.tps() / reference.tps());
    }

    /** The references of {@code results}, with TPS ratios taken by {@code tpsRatio} (per round: {@link Rounds}). */
    Baselines(List<RunResult> results, TpsRatio tpsRatio) {
        this.tpsRatio = tpsRatio;
        for (RunResult r : results) {
            if (r.status() == RunResult.Status.OK) {
                byKey.put(key(r), r);
            }
        }
    }

    /** The configuration of {@code r}: system, workload and calls in flight. */
    static String key(RunResult r) {
        return key(r.system(), r.workload(), r.inflight());
    }

    private static String key(String system, Workload w, int inflight) {
        return system + '|' + w.label() + '|' + inflight;
    }

    /** The successful run of {@code system} on {@code w} with {@code inflight} in flight (0: synchronous), or null. */
    public RunResult find(String system, Workload w, int inflight) {
        return byKey.get(key(system, w, inflight));
    }

    /** The minimal-RPC run {@code r} is read against, or null (none in this run, or {@code r} is one). */
    public RunResult rawRpc(RunResult r) {
        String raw = BenchSystems.rawRpcOf(r.system());
        return raw == null ? null : find(raw, r.workload(), r.inflight());
    }

    /** TPS of {@code r} divided by that of its minimal RPC ("x raw-rpc"). */
    public double ratioToRawRpc(RunResult r) {
        RunResult raw = rawRpc(r);
        return raw == null || r.status() != RunResult.Status.OK ? Double.NaN : tpsRatio.of(r, raw);
    }

    /**
     * The framework's own allocation per call on the client: {@code r}'s minus its minimal RPC's, which
     * makes the same (de)serializations and service calls.
     */
    public double ownClientAlloc(RunResult r) {
        RunResult raw = rawRpc(r);
        return raw == null || r.status() != RunResult.Status.OK ? Double.NaN
                : r.clientAllocPerCall() - raw.clientAllocPerCall();
    }

    /** The same on the server. */
    public double ownServerAlloc(RunResult r) {
        RunResult raw = rawRpc(r);
        return raw == null || r.status() != RunResult.Status.OK ? Double.NaN
                : r.serverAllocPerCall() - raw.serverAllocPerCall();
    }

    /** TPS of a pipelined {@code r} divided by the same system's synchronous TPS on the workload ("x sync"). */
    public double ratioToSync(RunResult r) {
        RunResult sync = r.pipelined() ? find(r.system(), r.workload(), 0) : null;
        return sync == null || r.status() != RunResult.Status.OK ? Double.NaN : tpsRatio.of(r, sync);
    }
}
