package io.kestrel.rpc.api.cluster;

import io.kestrel.rpc.api.registry.ProviderInfo;

/** A provider a load balancer may pick, with what the consumer knows of it right now. */
public interface Candidate {
    ProviderInfo provider();

    /** Calls this consumer has in flight to this provider for the service. */
    int activeCalls();
}
