package io.kestrel.rpc.api.registry;

import io.kestrel.rpc.api.config.RegistryConfig;

/**
 * Creates registries for one address scheme ("zookeeper"). Found with {@link java.util.ServiceLoader}
 * under {@code META-INF/services/io.kestrel.rpc.api.registry.RegistryFactory}.
 */
public interface RegistryFactory {
    /** The scheme of the addresses this factory serves, e.g. "zookeeper". */
    String scheme();

    /** Connects to the registry the config names. */
    Registry create(RegistryConfig config);
}
