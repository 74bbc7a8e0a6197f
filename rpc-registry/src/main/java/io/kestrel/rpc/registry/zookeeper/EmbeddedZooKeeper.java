package io.kestrel.rpc.registry.zookeeper;

import io.kestrel.rpc.api.RegistryException;
import java.io.File;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real ZooKeeper server running inside this JVM, bound to 127.0.0.1 only, with its data in a temporary
 * directory deleted when it stops. It lets a provider and a consumer run on a bare machine.
 *
 * <p>Instances are JVM-wide and reference-counted: {@link #acquire(int)} returns a {@link Lease} on a
 * running server (starting one if needed) and the server stops when its last lease is closed. Registries
 * configured as {@code embedded} hold such a lease, so every one of them in a JVM shares one server.
 * ZooKeeper's admin HTTP server is not started.
 *
 * <p>It runs on ZooKeeper's own {@link ZooKeeperServerEmbedded} with {@link ExitHandler#LOG_ONLY}: a server
 * failure is logged and never calls {@code System.exit} on the host JVM. (curator-test's {@code TestingServer}
 * uses the exiting handler, so it is kept for tests only.) Note that ZooKeeper keeps that handler in a JVM-wide
 * setting. Thread-safe.
 *
 * <pre>{@code
 * try (EmbeddedZooKeeper.Lease zk = EmbeddedZooKeeper.acquire(0)) {
 *     log.info("ZooKeeper at {}", zk.address());   // 127.0.0.1:NNNNN
 * }
 * }</pre>
 */
public final class EmbeddedZooKeeper {
    private static final Logger log = LoggerFactory.getLogger(EmbeddedZooKeeper.class);
    private static final String HOST = "127.0.0.1";
    private static final int TICK_MS = 1_000;
    private static final int MIN_SESSION_TIMEOUT_MS = 2_000;
    private static final int MAX_SESSION_TIMEOUT_MS = 120_000;
    private static final long START_TIMEOUT_MS = 15_000;

    private static final Object LOCK = new Object();
    /** Running servers by port, in start order. Guarded by LOCK. */
    private static final Map<Integer, EmbeddedZooKeeper> RUNNING = new LinkedHashMap<>();

    private final ZooKeeperServerEmbedded server;
    private final Path dataDir;
    private final int port;
    /** Guarded by LOCK. */
    private int leases;

    private EmbeddedZooKeeper(ZooKeeperServerEmbedded server, Path dataDir, int port) {
        this.server = server;
        this.dataDir = dataDir;
        this.port = port;
    }

    /**
     * Takes a lease on the embedded server: for {@code port} 0 on any running one (the first started), or a
     * new one on a free port; otherwise on the one at that port, starting it if needed.
     *
     * @throws RegistryException if the server cannot start (for example the port is taken)
     */
    public static Lease acquire(int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("embedded ZooKeeper port must be 0 (any) or 1..65535, was " + port);
        }
        synchronized (LOCK) {
            EmbeddedZooKeeper zk = port == 0
                    ? RUNNING.values().stream().findFirst().orElse(null)
                    : RUNNING.get(port);
            if (zk == null) {
                zk = start(port);
                RUNNING.put(zk.port, zk);
            }
            zk.leases++;
            return new Lease(zk);
        }
    }

    /** The first-started running embedded server, if any, e.g. to print its address in a demo. */
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

    @Override
    public String toString() {
        return "EmbeddedZooKeeper{" + address() + "}";
    }

    private static EmbeddedZooKeeper start(int requestedPort) {
        Path dir = null;
        ZooKeeperServerEmbedded server = null;
        try {
            int port = requestedPort == 0 ? freePort() : checkPortFree(requestedPort);
            dir = Files.createTempDirectory("kestrel-zookeeper-");
            Properties props = new Properties();
            props.setProperty("dataDir", dir.resolve("data").toString());
            props.setProperty("clientPort", String.valueOf(port));
            props.setProperty("clientPortAddress", HOST); // loopback only
            props.setProperty("tickTime", String.valueOf(TICK_MS));
            props.setProperty("minSessionTimeout", String.valueOf(MIN_SESSION_TIMEOUT_MS));
            props.setProperty("maxSessionTimeout", String.valueOf(MAX_SESSION_TIMEOUT_MS));
            props.setProperty("admin.enableServer", "false"); // else an HTTP admin server on 8080
            server = ZooKeeperServerEmbedded.builder()
                    .baseDir(dir)
                    .configuration(props)
                    .exitHandler(ExitHandler.LOG_ONLY)
                    .build();
            server.start(START_TIMEOUT_MS);
            EmbeddedZooKeeper zk = new EmbeddedZooKeeper(server, dir, port);
            log.info("Embedded ZooKeeper started at {} (data in {})", zk.address(), dir);
            return zk;
        } catch (RegistryException e) {
            deleteRecursively(dir);
            throw e;
        } catch (Exception e) {
            if (server != null) {
                server.close();
            }
            deleteRecursively(dir);
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new RegistryException(String.format(
                    "Could not start the embedded ZooKeeper on %s:%s: %s; check that the temp directory is "
                            + "writable and the port free, or point the registry at a real ZooKeeper "
                            + "(zookeeper://host:port)", HOST, requestedPort == 0 ? "<free port>" : requestedPort, e),
                    e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return s.getLocalPort();
        }
    }

    /** Fails fast with a clear message instead of waiting for ZooKeeper's start timeout. */
    private static int checkPortFree(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new java.net.InetSocketAddress(InetAddress.getByName(HOST), port), 1);
            return port;
        } catch (IOException e) {
            throw new RegistryException(String.format("Could not start the embedded ZooKeeper on %s:%d: the port is "
                    + "in use (%s); is another ZooKeeper already running there? Point the registry at it with "
                    + "zookeeper://%s:%d, or use 'embedded' for a free port", HOST, port, e.getMessage(), HOST, port),
                    e);
        }
    }

    private void release() {
        synchronized (LOCK) {
            if (--leases > 0) {
                return;
            }
            RUNNING.remove(port, this);
        }
        try {
            server.close();
        } catch (RuntimeException e) {
            log.warn("Stopping the embedded ZooKeeper at {} failed", address(), e);
        }
        deleteRecursively(dataDir);
        log.info("Embedded ZooKeeper at {} stopped", address());
    }

    private static void deleteRecursively(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    Files.deleteIfExists(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            log.warn("Could not delete the embedded ZooKeeper data directory {}; remove it by hand", dir, e);
        }
    }

    /** A hold on an embedded server; closing it (once; later calls do nothing) may stop the server. */
    public static final class Lease implements AutoCloseable {
        private final EmbeddedZooKeeper server;
        private final AtomicBoolean closed = new AtomicBoolean();

        private Lease(EmbeddedZooKeeper server) {
            this.server = server;
        }

        public EmbeddedZooKeeper server() {
            return server;
        }

        /** The server's "127.0.0.1:port". */
        public String address() {
            return server.address();
        }

        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                server.release();
            }
        }

        @Override
        public String toString() {
            return "lease on " + server;
        }
    }

    /** Where the data of a running server lives; for tests. */
    File dataDirectory() {
        return dataDir.toFile();
    }
}
