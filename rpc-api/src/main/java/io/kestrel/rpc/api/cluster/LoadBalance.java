package io.kestrel.rpc.api.cluster;

import java.util.List;

/**
 * Picks one provider for a call. Found with {@link java.util.ServiceLoader} under
 * {@code META-INF/services/io.kestrel.rpc.api.cluster.LoadBalance}; implementations are
 * thread-safe and keep no per-call state outside their own fields.
 */
public interface LoadBalance {
    /** The name used in configuration: "random", "roundrobin", "leastactive", "consistenthash". */
    String name();

    /**
     * Chooses one of {@code candidates} (never empty; all accept the call's serialization).
     */
    <C extends Candidate> C select(List<C> candidates, Invocation invocation);
}
