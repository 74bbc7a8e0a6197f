package io.kestrel.rpc.api.registry;

import io.kestrel.rpc.api.ServiceKey;
import java.util.List;

/** Told the full, current list of providers of a service whenever it changes. */
@FunctionalInterface
public interface ProviderListener {
    /**
     * Called once on subscribe with the current list, then after every change. Called from a
     * registry thread; must not block. The list is immutable and complete (not a delta).
     */
    void providersChanged(ServiceKey service, List<ProviderInfo> providers);
}
