package io.kestrel.rpc.registry.embedded;

import io.kestrel.rpc.api.RegistryException;
import io.kestrel.rpc.registry.zookeeper.EmbeddedRegistryFactory;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.curator.framework.CuratorFramework;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ZooKeeper behind {@code embedded} registries: one per host and port, shared by every process on the
 * host that uses the same port, bound to 127.0.0.1 only.
 *
 * <p><b>Across processes</b> ({@link #acquire(int)} with a port, {@value EmbeddedRegistryFactory#DEFAULT_PORT} by
 * default): the first process hosts a real ZooKeeper server on that port, later ones find it there and join as
 * clients. Who hosts is decided by a lock file (see {@link HostLock}) in the user's {@link EmbeddedDirectory}. Only
 * processes of this user that know the secret kept there are members: a joining process checks the server's proof
 * before it registers or reads anything, and refuses a server that cannot give it ({@link EmbeddedHosting}); every
 * node is closed to non-members ({@link EmbeddedAccess}). When the host ends, the processes that joined notice the
 * lost connection: one of them takes over hosting on the same port, the others reconnect to it ({@link
 * EmbeddedRecovery}), and every registry starts a new session, so providers register again and consumers see them
 * again. A port held by something that is not ZooKeeper is refused with a message naming the port and the
 * settings to change.
 *
 * <p><b>In this process only</b> ({@link #acquire(int)} with 0): a private server on a free port that no other
 * process finds; tests use it (system property {@value EmbeddedRegistryFactory#PORT_PROPERTY}{@code =0}).
 *
 * <p>Within one JVM everything is reference-counted: each {@link EmbeddedLease} holds the server (or membership);
 * the last lease closed stops a hosted server and deletes its temporary data directory. ZooKeeper's admin HTTP
 * server is not started. Thread-safe.
 */
public final class EmbeddedZooKeeper {
    private static final Logger log = LoggerFactory.getLogger(EmbeddedZooKeeper.class);
    static final String HOST = EmbeddedHosting.HOST;
    /** How long a joining process waits for a host that holds the lock but does not answer yet. */
    private static final long HOST_WAIT_MS = 15_000;

    private static final Object LOCK = new Object();
    /** By port, in start order. Guarded by LOCK. */
    private static final Map<Integer, EmbeddedZooKeeper> RUNNING = new LinkedHashMap<>();

    private final int port;
    private final boolean shared;
    private final EmbeddedHosting hosting;
    private final EmbeddedRecovery recovery;
    /** What each lease runs after the host was replaced. */
    final List<Runnable> sessionResetters = new CopyOnWriteArrayList<>();
    /** Guarded by LOCK. */
    private int leases;

    /** @param directory the user's directory of the shared server; null for the private one */
    private EmbeddedZooKeeper(int port, EmbeddedDirectory directory) {
        this.port = port;
        this.shared = directory != null;
        this.hosting = new EmbeddedHosting(port, directory);
        this.recovery = new EmbeddedRecovery(this, hosting);
    }

    /**
     * Takes a lease on the embedded ZooKeeper at {@code port} (hosting it or joining it, see the class comment),
     * or with 0 on a private one in this process (any already running, else a new one on a free port).
     *
     * @throws RegistryException if it can neither be hosted nor joined; the message says why and what to do
     */
    static EmbeddedLease acquire(int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("embedded ZooKeeper port must be 0 (private) or 1..65535, was " + port);
        }
        synchronized (LOCK) {
            EmbeddedZooKeeper zk = port == 0
                    ? RUNNING.values().stream().filter(z -> !z.shared).findFirst().orElse(null)
                    : RUNNING.get(port);
            if (zk == null) {
                zk = port == 0 ? startPrivate() : startShared(port);
                RUNNING.put(zk.port, zk);
            }
            zk.leases++;
            return new EmbeddedLease(zk);
        }
    }

    /** The first embedded ZooKeeper this process hosts or joined, if any, e.g. to print its address. */
    public static Optional<EmbeddedZooKeeper> current() {
        synchronized (LOCK) {
            return RUNNING.values().stream().findFirst();
        }
    }

    /** "127.0.0.1:port", usable as a ZooKeeper connect string. */
    public String address() {
        return HOST + ":" + port;
    }

    /** The client port. */
    public int port() {
        return port;
    }

    /** Whether this process runs the server (rather than having joined another process's). */
    public boolean isHostedHere() {
        return hosting.isHostedHere();
    }

    /** Whether this is the server shared across processes (not the private one). */
    boolean isShared() {
        return shared;
    }

    /** The credentials of the server hosted or joined now; they change when another process takes over. */
    EmbeddedCredentials credentials() {
        return hosting.credentials();
    }

    /**
     * Checks, through a registry's own client, that the server it reached is the one this process hosts or
     * joined (a server with another proof may have taken the port in between).
     *
     * @throws RegistryException naming the port and the fix if it is not
     */
    void verify(CuratorFramework client) {
        boolean proven;
        try {
            proven = EmbeddedAccess.proves(client, credentials());
        } catch (Exception e) {
            throw new RegistryException("Could not check the embedded ZooKeeper at " + address() + ": " + e, e);
        }
        if (!proven) {
            throw hosting.squatter("it did not prove that it was started with this user's secret");
        }
    }

    /** A registry on this ZooKeeper lost its connection (see {@link EmbeddedRecovery}). */
    void connectionLost() {
        recovery.connectionLost();
    }

    @Override
    public String toString() {
        return "EmbeddedZooKeeper{" + address() + (isHostedHere() ? ", hosted here" : ", joined") + "}";
    }

    // ---- start ----

    private static EmbeddedZooKeeper startPrivate() {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            port = s.getLocalPort();
        } catch (IOException e) {
            throw new RegistryException("Could not find a free port on " + HOST + " for the embedded ZooKeeper: " + e, e);
        }
        EmbeddedZooKeeper zk = new EmbeddedZooKeeper(port, null);
        zk.hosting.hostPrivate();
        log.info("Embedded ZooKeeper hosted by this process on {} (private: port {}=0, other processes cannot "
                + "join it; a process on another host needs a real ZooKeeper, zookeeper://host:port)",
                zk.address(), EmbeddedRegistryFactory.PORT_PROPERTY);
        return zk;
    }

    private static EmbeddedZooKeeper startShared(int port) {
        EphemeralPorts.warning(port, EphemeralPorts.LINUX_RANGE).ifPresent(log::warn);
        EmbeddedZooKeeper zk = new EmbeddedZooKeeper(port, EmbeddedDirectory.open());
        long deadline = System.nanoTime() + HOST_WAIT_MS * 1_000_000;
        while (!zk.hosting.hostOrJoin(false)) {
            if (System.nanoTime() > deadline) {
                throw zk.hosting.noAnswer(HOST_WAIT_MS);
            }
            EmbeddedRecovery.pause(100);
        }
        if (zk.isHostedHere()) {
            log.info("Embedded ZooKeeper hosted by this process on {}; processes on this host join it "
                    + "with the registry address 'embedded' (or embedded://{}); a process on another host "
                    + "needs a real ZooKeeper (zookeeper://host:port)", zk.address(), port);
        } else {
            log.info("Joined the embedded ZooKeeper at {} hosted by process {} on this host (a process on "
                    + "another host needs a real ZooKeeper, zookeeper://host:port)", zk.address(),
                    zk.hosting.hostPid());
        }
        return zk;
    }

    // ---- stop ----

    /** One lease was closed; the last one stops a server hosted here. */
    void release() {
        synchronized (LOCK) {
            if (--leases > 0) {
                return;
            }
            RUNNING.remove(port, this);
        }
        recovery.stop();
        if (!hosting.stop()) {
            return;
        }
        log.info("Embedded ZooKeeper at {} stopped", address());
    }

    /** Where the data of a server hosted here lives; for tests. */
    File dataDirectory() {
        Path dir = hosting.dataDirectory();
        return dir == null ? null : dir.toFile();
    }
}
