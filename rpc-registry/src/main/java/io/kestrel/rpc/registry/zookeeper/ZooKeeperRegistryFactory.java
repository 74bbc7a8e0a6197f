package io.kestrel.rpc.registry.zookeeper;

import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.registry.Registry;
import io.kestrel.rpc.api.registry.RegistryFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * Creates {@link ZooKeeperRegistry} instances for {@code zookeeper://host:port[,host:port...]} addresses.
 * A host without a port means port 2181. Listed in {@code META-INF/services}; stateless and thread-safe.
 */
public final class ZooKeeperRegistryFactory implements RegistryFactory {
    /** The scheme this factory serves. */
    public static final String SCHEME = "zookeeper";
    private static final String PREFIX = SCHEME + "://";
    private static final int DEFAULT_PORT = 2181;

    /** Public no-arg constructor for {@link java.util.ServiceLoader}. */
    public ZooKeeperRegistryFactory() {
    }

    @Override
    public String scheme() {
        return SCHEME;
    }

    /**
     * @throws IllegalArgumentException if the address is not {@code zookeeper://host:port[,host:port...]}
     * @throws io.kestrel.rpc.api.RegistryException if ZooKeeper cannot be reached within the connection timeout
     */
    @Override
    public Registry create(RegistryConfig config) {
        ZooKeeperLogs.quietUnlessVerbose();
        return new ZooKeeperRegistry(config, connectString(config.address()), null);
    }

    /** Turns {@code zookeeper://h1:p1,h2} into ZooKeeper's {@code h1:p1,h2:2181}. */
    static String connectString(String address) {
        if (address == null || !address.startsWith(PREFIX)) {
            throw new IllegalArgumentException("registry address '" + address
                    + "' is not a ZooKeeper address; use zookeeper://host:port[,host:port...]");
        }
        String hosts = address.substring(PREFIX.length());
        if (hosts.endsWith("/")) {
            hosts = hosts.substring(0, hosts.length() - 1);
        }
        List<String> parts = new ArrayList<>();
        for (String raw : hosts.split(",", -1)) {
            String hostPort = raw.trim();
            if (hostPort.isEmpty() || hostPort.contains("/") || hostPort.contains("?")) {
                throw bad(address, "'" + hostPort + "' is not host:port");
            }
            int colon = hostPort.lastIndexOf(':');
            if (colon < 0) {
                parts.add(hostPort + ":" + DEFAULT_PORT);
                continue;
            }
            String host = hostPort.substring(0, colon);
            String port = hostPort.substring(colon + 1);
            int p;
            try {
                p = Integer.parseInt(port);
            } catch (NumberFormatException e) {
                throw bad(address, "port '" + port + "' of '" + hostPort + "' is not a number");
            }
            if (host.isEmpty() || p <= 0 || p > 65535) {
                throw bad(address, "'" + hostPort + "' needs a host and a port in 1..65535");
            }
            parts.add(host + ":" + p);
        }
        return String.join(",", parts);
    }

    private static IllegalArgumentException bad(String address, String why) {
        return new IllegalArgumentException("registry address '" + address + "' is malformed: " + why
                + "; use zookeeper://host:port[,host:port...]");
    }
}
