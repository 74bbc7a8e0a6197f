package io.kestrel.rpc.registry.zookeeper;

import io.kestrel.rpc.api.RegistryException;
import io.kestrel.rpc.api.config.RegistryConfig;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.UnhandledErrorListener;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;

/** Starts the Curator client of a {@link ZooKeeperRegistry} and waits for its first connection. */
final class CuratorConnect {
    private static final int RETRY_BASE_SLEEP_MS = 100;
    private static final int RETRY_MAX_SLEEP_MS = 3_000;
    private static final int RETRY_MAX_RETRIES = 10;

    private CuratorConnect() {
    }

    /**
     * A started client connected within {@link RegistryConfig#connectionTimeout()}; on the embedded ZooKeeper
     * ({@code lease} not null) a member's, whose server has proven itself. Nothing is left running on failure.
     *
     * @throws RegistryException if ZooKeeper cannot be reached in time
     */
    static CuratorFramework connect(RegistryConfig config, String connectString, EmbeddedRegistryProvider.Member lease,
            ConnectionStateListener states, UnhandledErrorListener errors) {
        long connectMs = config.connectionTimeout().toMillis();
        CuratorFramework c = null;
        try {
            CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder();
            if (lease != null) { // members only: authenticated, and every node closed to others
                lease.configure(builder);
            }
            c = builder
                    .connectString(connectString)
                    .sessionTimeoutMs(toIntMillis(config.sessionTimeout()))
                    // Curator's own per-attempt wait; above the session timeout it only delays recovery.
                    .connectionTimeoutMs(toIntMillis(min(config.connectionTimeout(), config.sessionTimeout())))
                    .retryPolicy(new BoundedExponentialBackoffRetry(
                            RETRY_BASE_SLEEP_MS, RETRY_MAX_SLEEP_MS, RETRY_MAX_RETRIES))
                    // Keep the addresses as configured; the tracker would replace them with the
                    // servers' own view of their host names.
                    .ensembleTracker(false)
                    .build();
            c.getConnectionStateListenable().addListener(states);
            c.getUnhandledErrorListenable().addListener(errors);
            c.start();
            if (!c.blockUntilConnected((int) Math.min(connectMs, Integer.MAX_VALUE), TimeUnit.MILLISECONDS)) {
                throw new RegistryException(String.format(
                        "Could not connect to ZooKeeper at %s (%s) within %d ms; check that ZooKeeper is running "
                                + "there and reachable from this host (host names, ports, firewall), or raise the "
                                + "registry's connection-timeout (<rpc:registry connection-timeout=\"30s\"/>, "
                                + "rpc.registry.connection-timeout, RegistryConfig.Builder.connectionTimeout)",
                        config.address(), connectString, connectMs));
            }
            if (lease != null) {
                lease.verify(c); // before anything is registered or read
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closeClient(c);
            throw new RegistryException("Interrupted while connecting to ZooKeeper at " + config.address(), e);
        } catch (RegistryException e) {
            closeClient(c);
            throw e;
        } catch (RuntimeException e) {
            closeClient(c);
            throw new RegistryException(String.format(
                    "Could not start a ZooKeeper client for %s (%s): %s; check the address (host:port[,host:port...])",
                    config.address(), connectString, e.getMessage()), e);
        }
        return c;
    }

    private static void closeClient(CuratorFramework c) {
        if (c != null) {
            c.close();
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static int toIntMillis(Duration d) {
        return (int) Math.min(d.toMillis(), Integer.MAX_VALUE);
    }
}
