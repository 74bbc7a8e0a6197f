package io.kestrel.rpc.registry.zookeeper;

import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.registry.Registry;
import io.kestrel.rpc.api.registry.RegistryFactory;

/**
 * Creates {@link ZooKeeperRegistry} instances on the host-wide {@link EmbeddedZooKeeper} for the addresses
 * {@code embedded} (port {@value EmbeddedZooKeeper#DEFAULT_PORT}, or the system property
 * {@value EmbeddedZooKeeper#PORT_PROPERTY}; 0 there means a private server on a free port) and
 * {@code embedded://port} (that port). All registries on the same port of this host see each other, in any
 * process. Listed in {@code META-INF/services}; thread-safe.
 */
public final class EmbeddedRegistryFactory implements RegistryFactory {
    /** The scheme this factory serves. */
    public static final String SCHEME = "embedded";

    /** Public no-arg constructor for {@link java.util.ServiceLoader}. */
    public EmbeddedRegistryFactory() {
    }

    @Override
    public String scheme() {
        return SCHEME;
    }

    /**
     * @throws IllegalArgumentException if the port in {@code embedded://port} is not 1..65535
     * @throws io.kestrel.rpc.api.RegistryException if the embedded server cannot start or be reached
     */
    @Override
    public Registry create(RegistryConfig config) {
        ZooKeeperLogs.quietUnlessVerbose();
        EmbeddedZooKeeper.Lease lease = EmbeddedZooKeeper.acquire(port(config.address()));
        return new ZooKeeperRegistry(config, lease.address(), lease);
    }

    /** {@link EmbeddedZooKeeper#defaultPort()} for "embedded", else the port of "embedded://port". */
    static int port(String address) {
        String prefix = SCHEME + "://";
        if (address == null || address.equals(SCHEME) || address.equals(prefix)) {
            return EmbeddedZooKeeper.defaultPort();
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
                + EmbeddedZooKeeper.defaultPort() + ")");
    }
}
