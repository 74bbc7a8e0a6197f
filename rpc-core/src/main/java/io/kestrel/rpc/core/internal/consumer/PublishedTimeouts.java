package io.kestrel.rpc.core.internal.consumer;

import io.kestrel.rpc.api.ConsumerLimits;
import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.registry.ProviderInfo;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A provider's published {@code timeout} as one reference uses it: at most
 * {@link ConsumerLimits#maxProviderTimeoutMillis()}, so that a registry record cannot make this
 * consumer hold calls (and their memory) for days. The first clamp of a reference is logged once.
 * Thread-safe.
 */
final class PublishedTimeouts {
    private static final Logger log = LoggerFactory.getLogger(PublishedTimeouts.class);

    private final ServiceKey service;
    private final long maxMillis = ConsumerLimits.maxProviderTimeoutMillis();
    private final AtomicBoolean warned = new AtomicBoolean();

    PublishedTimeouts(ServiceKey service) {
        this.service = service;
    }

    /** {@code published} in milliseconds, lowered to the cap when above it. */
    int clamp(ProviderInfo provider, Duration published) {
        long millis = published.toMillis();
        if (millis <= maxMillis) {
            return ClusterInvoker.millis(published);
        }
        if (warned.compareAndSet(false, true)) {
            log.warn("Provider {} publishes timeout={} ms for {}, over this consumer's cap of {} ms; calls use {} ms"
                    + " (logged once per reference). Set timeout on the reference to choose it yourself, or raise"
                    + " -D{}", provider.address(), millis, service, maxMillis, maxMillis,
                    ConsumerLimits.MAX_PROVIDER_TIMEOUT_PROPERTY);
        }
        return (int) Math.min(Integer.MAX_VALUE, maxMillis);
    }
}
