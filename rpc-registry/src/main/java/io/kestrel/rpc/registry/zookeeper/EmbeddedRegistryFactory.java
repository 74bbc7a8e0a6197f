package io.kestrel.rpc.registry.zookeeper;

import io.kestrel.rpc.api.RegistryException;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.registry.Registry;
import io.kestrel.rpc.api.registry.RegistryFactory;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Creates {@link ZooKeeperRegistry} instances on the host-wide embedded ZooKeeper for the addresses
 * {@code embedded} (port {@value #DEFAULT_PORT}, or the system property {@value #PORT_PROPERTY}; 0 there means a
 * private server on a free port) and {@code embedded://port} (that port). All registries on the same port of
 * this host see each other, in any process. The server itself comes from {@value EmbeddedRegistryProvider#ARTIFACT}
 * ({@link EmbeddedRegistryProvider}); without it an embedded address fails naming that artifact. Listed in
 * {@code META-INF/services}; thread-safe.
 */
public final class EmbeddedRegistryFactory implements RegistryFactory {
    /** The scheme this factory serves. */
    public static final String SCHEME = "embedded";
    /** The port {@code embedded} uses unless {@value #PORT_PROPERTY} says otherwise; 2181 is left to a real ZooKeeper. */
    public static final int DEFAULT_PORT = 2182;
    /** System property: the port of {@code embedded} ({@code 0}: a private server on a free port, this process only). */
    public static final String PORT_PROPERTY = "kestrel.rpc.registry.embedded.port";

    /** Public no-arg constructor for {@link java.util.ServiceLoader}. */
    public EmbeddedRegistryFactory() {
    }

    @Override
    public String scheme() {
        return SCHEME;
    }

    /**
     * @throws IllegalArgumentException if the port in {@code embedded://port} is not 1..65535
     * @throws io.kestrel.rpc.api.RegistryException if {@value EmbeddedRegistryProvider#ARTIFACT} is not on the class
     *     path, or the embedded server cannot start or be reached
     */
    @Override
    public Registry create(RegistryConfig config) {
        int port = port(config.address());
        EmbeddedRegistryProvider provider = provider(config.address());
        ZooKeeperLogs.quietUnlessVerbose();
        EmbeddedRegistryProvider.Member member = provider.join(port);
        return new ZooKeeperRegistry(config, member.address(), member);
    }

    /** The port {@code embedded} means: {@value #PORT_PROPERTY}, else {@value #DEFAULT_PORT}. */
    public static int defaultPort() {
        String p = System.getProperty(PORT_PROPERTY);
        if (p == null || p.isBlank()) {
            return DEFAULT_PORT;
        }
        try {
            int port = Integer.parseInt(p.strip());
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw new IllegalArgumentException("system property " + PORT_PROPERTY + "='" + p + "' must be a port in "
                + "1..65535 (or 0 for a private embedded ZooKeeper on a free port)");
    }

    /** {@link #defaultPort()} for "embedded", else the port of "embedded://port". */
    static int port(String address) {
        String prefix = SCHEME + "://";
        if (address == null || address.equals(SCHEME) || address.equals(prefix)) {
            return defaultPort();
        }
        if (!address.startsWith(prefix)) {
            throw new IllegalArgumentException("registry address '" + address
                    + "' is not an embedded address; use 'embedded' or embedded://port");
        }
        String port = address.substring(prefix.length());
        int colon = port.lastIndexOf(':');
        if (colon >= 0) {
            port = port.substring(colon + 1); // tolerate embedded://127.0.0.1:2181
        }
        try {
            int p = Integer.parseInt(port);
            if (p > 0 && p <= 65535) {
                return p;
            }
        } catch (NumberFormatException e) {
            // fall through to the message below
        }
        throw new IllegalArgumentException("registry address '" + address
                + "': the port must be a number in 1..65535, e.g. embedded://2182 (or just 'embedded' for port "
                + defaultPort() + ")");
    }

    /**
     * The provider of the embedded ZooKeeper, from the thread's context class loader or this class's.
     *
     * @throws RegistryException naming the artifact to add if there is none
     */
    static EmbeddedRegistryProvider provider(String address) {
        for (ClassLoader cl : new ClassLoader[] {Thread.currentThread().getContextClassLoader(),
                EmbeddedRegistryFactory.class.getClassLoader()}) {
            if (cl == null) {
                continue;
            }
            Optional<EmbeddedRegistryProvider> found = ServiceLoader.load(EmbeddedRegistryProvider.class, cl)
                    .findFirst();
            if (found.isPresent()) {
                return found.get();
            }
        }
        throw new RegistryException(String.format("The registry address '%s' means the embedded ZooKeeper (the "
                + "default when no address is set), and this process cannot host or join it: the embedded registry "
                + "is not on its class path. Add the dependency %s (rpc-core brings it unless it was excluded), or "
                + "use a real ZooKeeper (zookeeper://host:port)", address == null ? SCHEME : address,
                EmbeddedRegistryProvider.ARTIFACT));
    }
}
