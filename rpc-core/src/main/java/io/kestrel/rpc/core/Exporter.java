package io.kestrel.rpc.core;

import io.kestrel.rpc.api.registry.ProviderInfo;

/**
 * Handle of one exported service ({@link RpcRuntime#export}): what was published, taking the provider out of the
 * registry and back while it keeps serving, and unexporting. Thread-safe.
 */
public interface Exporter {
    /** What was published for this service. */
    ProviderInfo provider();

    /**
     * Takes this provider out of the registry (consumers stop choosing it within about a second) while it keeps
     * serving calls already routed to it; {@link #online} publishes it again.
     *
     * @return false if it was offline already
     * @throws IllegalStateException when the runtime has no registry (direct mode), or the service was unexported
     */
    boolean offline();

    /**
     * Publishes this provider in the registry again after {@link #offline}.
     *
     * @return false if it was online already
     * @throws IllegalStateException when the runtime has no registry (direct mode), or the service was unexported
     */
    boolean online();

    /** Whether this provider's record is published (false once {@link #offline} and once unexported). */
    boolean isOnline();

    /** Unregisters the service and stops serving new calls to it. Idempotent. */
    void unexport();
}
