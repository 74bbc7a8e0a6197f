package io.kestrel.rpc.core.internal.consumer;

import io.kestrel.rpc.api.NoProviderException;
import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.generic.GenericService;
import io.kestrel.rpc.api.generic.ServiceMetadata;
import io.kestrel.rpc.api.registry.ProviderInfo;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The runtime's metadata lookups: one direct generic reference per service and provider address, asked once
 * and cached (a provider's metadata changes only when it is redeployed, which gives it a new registry record).
 * Direct references write no consumer record, so looking at a service does not show up as consuming it.
 */
public final class MetadataClient {
    private final References references;
    private final Function<ServiceKey, List<ProviderInfo>> providers;
    private final Map<String, ServiceMetadata> cache = new ConcurrentHashMap<>();
    private final Map<String, GenericService> direct = new ConcurrentHashMap<>();

    /** @param providers the registry's provider records of a service (throws without a registry) */
    public MetadataClient(References references, Function<ServiceKey, List<ProviderInfo>> providers) {
        this.references = references;
        this.providers = providers;
    }

    /**
     * The metadata of {@code service} from a provider the registry lists: one already asked, else the first that
     * answers (the first failure is thrown, with the others suppressed, when none does).
     */
    public ServiceMetadata of(ServiceKey service) {
        List<ProviderInfo> known = providers.apply(service);
        if (known.isEmpty()) {
            throw new NoProviderException("No provider of " + service + " is registered, so nobody can describe it."
                    + " Start a provider, or check the interface name, version and group");
        }
        for (ProviderInfo p : known) {
            ServiceMetadata cached = cache.get(cacheKey(service, p.address()));
            if (cached != null) {
                return cached;
            }
        }
        RuntimeException failure = null;
        for (ProviderInfo p : known) {
            try {
                return of(service, p.address());
            } catch (RuntimeException e) { // that provider is down or refuses: ask the next
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        throw failure;
    }

    /** The metadata of {@code service} from the provider at {@code address}. */
    public ServiceMetadata of(ServiceKey service, String address) {
        String key = cacheKey(service, address);
        ServiceMetadata cached = cache.get(key);
        if (cached != null) {
            return cached;
        }
        GenericService generic = direct.computeIfAbsent(key, k -> references.refer(
                ReferenceConfig.generic(service.interfaceName()).version(service.version()).group(service.group())
                        .url(address).check(false).retries(0).build()));
        ServiceMetadata metadata = generic.$metadata();
        cache.put(key, metadata);
        return metadata;
    }

    private static String cacheKey(ServiceKey service, String address) {
        return service + "@" + address;
    }
}
