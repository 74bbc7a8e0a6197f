package io.kestrel.rpc.core.internal.consumer;

import io.kestrel.rpc.api.ConsumerLimits;
import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.registry.ProviderInfo;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * At most {@link ConsumerLimits#maxProviders()} providers for one reference: whoever can write the
 * registry could otherwise make this consumer open a connection (and hold its buffers) to thousands
 * of addresses. Providers the reference already uses are kept first, so a flood of new records does
 * not push out the ones that work. The first time a list is cut, and each time the cut grows tenfold,
 * a warning says so. Thread-safe.
 */
final class ProviderCap {
    private static final Logger log = LoggerFactory.getLogger(ProviderCap.class);

    private final ServiceKey service;
    private final int max = ConsumerLimits.maxProviders();
    private long warnedAt;

    ProviderCap(ServiceKey service) {
        this.service = service;
    }

    /** {@code providers}, cut to the cap: those among {@code current} first, then the others in order. */
    synchronized List<ProviderInfo> limit(List<ProviderInfo> providers, List<Endpoint> current) {
        if (providers.size() <= max) {
            warnedAt = 0;
            return providers;
        }
        Set<String> used = new HashSet<>();
        for (Endpoint e : current) {
            used.add(e.provider().address());
        }
        List<ProviderInfo> kept = new ArrayList<>(max);
        for (ProviderInfo p : providers) {
            if (kept.size() < max && used.contains(p.address())) {
                kept.add(p);
            }
        }
        for (ProviderInfo p : providers) {
            if (kept.size() < max && !used.contains(p.address())) {
                kept.add(p);
            }
        }
        int dropped = providers.size() - kept.size();
        if (warnedAt == 0 || dropped >= warnedAt * 10) {
            warnedAt = dropped;
            log.warn("The registry lists {} providers of {}, over this consumer's cap of {}: {} are ignored (the ones"
                    + " in use are kept). A registry writer may be flooding it; if the service really has that many"
                    + " providers, raise -D{}", providers.size(), service, max, dropped,
                    ConsumerLimits.MAX_PROVIDERS_PROPERTY);
        }
        return kept;
    }
}
