package io.kestrel.rpc.api.registry;

import io.kestrel.rpc.api.RegistryException;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.spi.ExtensionPoint;
import java.util.Set;

/**
 * Creates a {@link Registry} for a {@link RegistryConfig}, choosing the {@link RegistryFactory} whose
 * {@link RegistryFactory#scheme()} matches {@link RegistryConfig#scheme()} among those found through
 * {@link ExtensionPoint} (so under its class-loader policy). The rpc-registry jar provides "zookeeper"
 * and "embedded".
 *
 * <pre>{@code
 * try (Registry registry = Registries.create(RegistryConfig.builder().address("zookeeper://zk1:2181,zk2:2181").build())) {
 *     registry.register(provider);
 * }
 * }</pre>
 */
public final class Registries {
    private static final ExtensionPoint<RegistryFactory> FACTORIES = ExtensionPoint.of(RegistryFactory.class,
            "registry scheme", RegistryFactory::scheme, "Is the rpc-registry jar (or your plug-in listing META-INF/"
                    + "services/" + RegistryFactory.class.getName() + ") on the classpath?");

    private Registries() {
    }

    /**
     * Connects to the registry the config names.
     *
     * @throws RegistryException if no factory serves the scheme (the message names the address and lists the
     *     known schemes) or the registry cannot be reached
     */
    public static Registry create(RegistryConfig config) {
        RegistryFactory factory;
        try {
            factory = FACTORIES.installed().get(config.scheme());
        } catch (IllegalArgumentException e) {
            throw new RegistryException("Registry address " + config.address() + ": " + e.getMessage(), e);
        }
        return factory.create(config);
    }

    /** Schemes of every registry factory on the classpath, sorted. */
    public static Set<String> knownSchemes() {
        return FACTORIES.installed().names();
    }
}
