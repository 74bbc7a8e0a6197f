package io.kestrel.rpc.registry;

import io.kestrel.rpc.api.RegistryException;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.registry.Registry;
import io.kestrel.rpc.api.registry.RegistryFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Creates a {@link Registry} for a {@link RegistryConfig}, choosing the {@link RegistryFactory} whose
 * {@link RegistryFactory#scheme()} matches {@link RegistryConfig#scheme()} among those found with
 * {@link ServiceLoader}. Built in: "zookeeper" and "embedded".
 *
 * <pre>{@code
 * try (Registry registry = Registries.create(RegistryConfig.builder().address("zookeeper://zk1:2181,zk2:2181").build())) {
 *     registry.register(provider);
 * }
 * }</pre>
 */
public final class Registries {
    private Registries() {
    }

    /**
     * Connects to the registry the config names.
     *
     * @throws RegistryException if no factory serves the scheme (the message lists the known ones) or the
     *     registry cannot be reached
     */
    public static Registry create(RegistryConfig config) {
        String scheme = config.scheme();
        List<String> known = new ArrayList<>();
        for (RegistryFactory factory : ServiceLoader.load(RegistryFactory.class, classLoader())) {
            if (factory.scheme().equals(scheme)) {
                return factory.create(config);
            }
            known.add(factory.scheme());
        }
        throw new RegistryException("No registry factory for scheme '" + scheme + "' (address " + config.address()
                + "); known schemes: " + known + ". Is the rpc-registry jar (or your plug-in listing "
                + "META-INF/services/" + RegistryFactory.class.getName() + ") on the classpath?");
    }

    /** Schemes of every registry factory on the classpath, in ServiceLoader order. */
    public static List<String> knownSchemes() {
        List<String> known = new ArrayList<>();
        ServiceLoader.load(RegistryFactory.class, classLoader()).forEach(f -> known.add(f.scheme()));
        return known;
    }

    private static ClassLoader classLoader() {
        ClassLoader tccl = Thread.currentThread().getContextClassLoader();
        return tccl != null ? tccl : Registries.class.getClassLoader();
    }
}
