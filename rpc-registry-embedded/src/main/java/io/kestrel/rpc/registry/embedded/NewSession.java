package io.kestrel.rpc.registry.embedded;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a registry's client over with a new session when the embedded ZooKeeper it uses was
 * replaced by a new server (its host ended): the old session is unknown there and the client may refuse the new
 * server's younger transaction ids. Registered nodes are created again and watches set again by Curator on the new
 * session.
 */
final class NewSession {
    // the registry's messages, as before the embedded registry moved to its own artifact
    private static final Logger log = LoggerFactory.getLogger("io.kestrel.rpc.registry.zookeeper.ZooKeeperRegistry");
    /** How long a client gets to reconnect by itself before it is given a new session. */
    private static final int RECONNECT_GRACE_MS = 1_500;
    /** Resets closer together than this are the echo of the previous one. */
    private static final long RESET_INTERVAL_MS = 10_000;

    private final EmbeddedLease lease;
    /** System.nanoTime() of the last session reset (embedded take-over); recovery thread only. */
    private long lastSessionReset = System.nanoTime() - TimeUnit.HOURS.toNanos(1);
    /** The credentials the client's current ZooKeeper handle authenticated with. */
    private volatile EmbeddedCredentials handleCredentials;

    NewSession(EmbeddedLease lease) {
        this.lease = lease;
    }

    /** The credentials for a new ZooKeeper handle, remembered as the current handle's. */
    EmbeddedCredentials credentials() {
        handleCredentials = lease.credentials();
        return handleCredentials;
    }

    /**
     * Called when the embedded server was replaced; does nothing when the same server came back.
     *
     * @param address the registry's address, for the log
     * @param closed whether the registry closed meanwhile
     */
    void start(CuratorFramework client, String address, BooleanSupplier closed) {
        if (closed.getAsBoolean()) {
            return;
        }
        try {
            // The same server came back (a pause, not a new host): the client reconnects by itself.
            if (client.blockUntilConnected(RECONNECT_GRACE_MS, TimeUnit.MILLISECONDS)
                    && handleCredentials == lease.credentials()) {
                return;
            }
            long now = System.nanoTime();
            if (now - lastSessionReset < TimeUnit.MILLISECONDS.toNanos(RESET_INTERVAL_MS)) {
                return; // the last reset is still connecting; closing its handle raised this event
            }
            lastSessionReset = now;
            log.info("Starting a new ZooKeeper session on {} (the embedded ZooKeeper was replaced)", address);
            client.getZookeeperClient().reset();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.warn("Could not start a new ZooKeeper session on {}: {}", address, e.toString());
        }
    }
}
