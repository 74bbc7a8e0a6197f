package io.kestrel.rpc.registry.embedded;

import io.kestrel.rpc.api.RegistryException;
import io.kestrel.rpc.registry.zookeeper.EmbeddedRegistryFactory;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How this process gets a trusted embedded ZooKeeper on one port: it hosts it (the host lock is free and the
 * port too) or joins the one another process of this user hosts, after checking its proof; anything else on the
 * port is refused. Holds the server while this process hosts it. Thread-safe.
 */
final class EmbeddedHosting {
    private static final Logger log = LoggerFactory.getLogger(EmbeddedHosting.class);
    static final String HOST = "127.0.0.1";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(15);
    private static final long PROOF_TIMEOUT_MS = 5_000;

    private final int port;
    /** The user's directory; null for the private server. */
    private final EmbeddedDirectory directory;
    /** Those of the server this process hosts or joined last. */
    private volatile EmbeddedCredentials credentials;
    /** Why the last ZooKeeper found on the port was not joined, or null. */
    private volatile String unproven;
    /** Guarded by this: the server while this process hosts it, its data and lock. */
    private AutoCloseable server;
    private Path dataDir;
    private HostLock hostLock;
    /** Guarded by this: the last lease is closed; nothing is hosted or joined any more. */
    private boolean stopped;

    EmbeddedHosting(int port, EmbeddedDirectory directory) {
        this.port = port;
        this.directory = directory;
    }

    String address() {
        return HOST + ":" + port;
    }

    EmbeddedCredentials credentials() {
        return credentials;
    }

    synchronized boolean isHostedHere() {
        return server != null;
    }

    /** Why the ZooKeeper on the port was not joined (for the message after waiting), or null. */
    String unproven() {
        return unproven;
    }

    /** Hosts the private server (no lock: its port is free and nobody else looks for it). */
    synchronized void hostPrivate() {
        host(null, EmbeddedCredentials.random(), null);
    }

    /**
     * One attempt: host the server if this process gets the lock and the port is free, or join a ZooKeeper
     * that proves it was started with this user's secret.
     *
     * @param takeOver whether this is a take-over after the host went away (for the log line)
     * @return false if another process holds the lock and nothing (or nothing proven yet) answers
     * @throws RegistryException if the port is held by something that is not ZooKeeper, by a ZooKeeper while no
     *     process of this user hosts it, or hosting fails
     */
    synchronized boolean hostOrJoin(boolean takeOver) {
        if (stopped) {
            return false; // a take-over that ran into the last lease's close
        }
        HostLock lock = HostLock.tryAcquire(directory.lockFile(port));
        ZooKeeperProbe.Result found = ZooKeeperProbe.probe(HOST, port);
        if (found.kind() == ZooKeeperProbe.Kind.OTHER) {
            closeQuietly(lock);
            throw notZooKeeper(found);
        }
        if (found.kind() == ZooKeeperProbe.Kind.ZOOKEEPER) {
            if (lock != null) {
                lock.close(); // the host holds the lock as long as its server runs: this one is not ours
                throw squatter("it is a ZooKeeper, but no Kestrel process of this user hosts that port (its host "
                        + "lock is free)");
            }
            return join();
        }
        if (lock == null) {
            return false; // the host is starting
        }
        if (!bindable(port)) {
            lock.close(); // a host that just ended may hold its lock file and its port a moment apart
            return false;
        }
        try {
            host(lock, directory.credentials(directory.writeNewHostId(port)), takeOver ? "took over" : null);
        } catch (IOException e) {
            lock.close();
            throw new RegistryException("Could not write the embedded registry's host file "
                    + directory.hostFile(port) + ": " + e, e);
        } catch (RuntimeException e) {
            lock.close();
            throw e;
        }
        return true;
    }

    private boolean join() {
        Optional<String> id = directory.hostId(port);
        if (id.isEmpty()) {
            unproven = "no Kestrel process of this user wrote the host file " + directory.hostFile(port);
            return false;
        }
        EmbeddedCredentials c = directory.credentials(id.get());
        try {
            if (EmbeddedAccess.proves(address(), c, PROOF_TIMEOUT_MS)) {
                credentials = c;
                unproven = null;
                return true;
            }
            unproven = "it did not prove that it was started with this user's secret " + directory.secretFile();
        } catch (IOException e) {
            unproven = e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            unproven = "interrupted";
        }
        return false;
    }

    /** The error for a ZooKeeper on the port that is not this user's embedded one. */
    RegistryException squatter(String why) {
        return new RegistryException(String.format("Another process, not started by Kestrel for user %s, listens "
                + "on %s: %s. This process neither joins it nor registers or reads anything there. Stop that "
                + "process (find it with: ss -ltnp 'sport = :%d'), or give the embedded registry another port "
                + "(embedded://PORT, or -D%s=PORT), or use a real ZooKeeper (zookeeper://host:port). Kestrel's host "
                + "lock and secret are in %s", EmbeddedDirectory.userName(), address(), why, port,
                EmbeddedRegistryFactory.PORT_PROPERTY, directory == null ? "memory" : directory.path()));
    }

    /** The error after waiting for a host that holds the lock. */
    RegistryException noAnswer(long waitedMs) {
        if (unproven != null) {
            return squatter(unproven);
        }
        return new RegistryException(String.format("Process %s holds the embedded ZooKeeper lock %s for %s but "
                + "nothing answered on that port within %d ms; if that process hangs, stop it, or use another "
                + "port (embedded://PORT, or -D%s=PORT)", hostPid(), directory.lockFile(port), address(), waitedMs,
                EmbeddedRegistryFactory.PORT_PROPERTY));
    }

    String hostPid() {
        return directory == null ? String.valueOf(ProcessHandle.current().pid())
                : HostLock.hostPid(directory.lockFile(port));
    }

    private static boolean bindable(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getByName(HOST), port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private RegistryException notZooKeeper(ZooKeeperProbe.Result found) {
        return new RegistryException(String.format("Port %d on %s is taken by something that is not ZooKeeper (%s), "
                + "so the embedded ZooKeeper can neither run nor be joined there. Free the port, or give the embedded "
                + "registry another one: <rpc:registry address=\"embedded://PORT\"/> (rpc.registry.address) or "
                + "-D%s=PORT for 'embedded'; or use a real ZooKeeper (zookeeper://host:port)",
                port, HOST, found.answer(), EmbeddedRegistryFactory.PORT_PROPERTY));
    }

    /** Starts the server here, closes it to non-members and stores its proof. Called with this locked. */
    private void host(HostLock lock, EmbeddedCredentials c, String how) {
        Path dir = null;
        AutoCloseable started = null;
        try {
            dir = Files.createTempDirectory("kestrel-zookeeper-");
            started = ZooKeeperServerLauncher.start(HOST, port, dir, START_TIMEOUT);
            EmbeddedAccess.lockDown(address(), c, START_TIMEOUT.toMillis());
        } catch (Exception e) {
            closeQuietly(started);
            DataDirectories.deleteRecursively(dir);
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new RegistryException(String.format("Could not start the embedded ZooKeeper on %s: %s; check that "
                    + "the temp directory is writable and the port free (or use another: embedded://PORT), or point "
                    + "the registry at a real ZooKeeper (zookeeper://host:port)", address(), e), e);
        }
        server = started;
        dataDir = dir;
        hostLock = lock;
        credentials = c;
        if (how != null) {
            log.info("Embedded ZooKeeper: the process hosting {} went away; this process {} hosting it", address(),
                    how);
        }
        log.debug("Embedded ZooKeeper data in {}", dir);
    }


    /** Stops a server hosted here, releases its lock and deletes its data; true if there was one. */
    synchronized boolean stop() {
        stopped = true;
        if (server == null) {
            return false;
        }
        try {
            server.close();
        } catch (Exception e) {
            log.warn("Stopping the embedded ZooKeeper at {} failed", address(), e);
        }
        server = null;
        closeQuietly(hostLock);
        hostLock = null;
        DataDirectories.deleteRecursively(dataDir);
        return true;
    }

    /** Where the data of a server hosted here lives; for tests. */
    synchronized Path dataDirectory() {
        return dataDir;
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            log.debug("Closing {} failed: {}", c, e.toString());
        }
    }
}
