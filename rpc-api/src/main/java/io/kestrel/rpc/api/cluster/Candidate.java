package io.kestrel.rpc.api.cluster;

import io.kestrel.rpc.api.registry.ProviderInfo;

/** A provider a load balancer may pick, with what the consumer knows of it right now. */
public interface Candidate {
    ProviderInfo provider();

    /**
     * The weight to balance by now: the published {@link ProviderInfo#weight()}, lower while a provider that
     * publishes a warm-up is still warming up. Default: the published weight.
     */
    default int weight() {
        return provider().weight();
    }

    /** Calls this consumer has in flight to this provider for the service. */
    int activeCalls();
}
