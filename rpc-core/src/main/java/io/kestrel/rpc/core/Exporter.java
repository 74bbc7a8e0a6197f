package io.kestrel.rpc.core;

import io.kestrel.rpc.api.registry.ProviderInfo;

/** Handle of one exported service. */
public interface Exporter {
    /** What was published for this service. */
    ProviderInfo provider();

    /** Unregisters the service and stops serving new calls to it. Idempotent. */
    void unexport();
}
