package io.kestrel.rpc.registry.embedded;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;

/**
 * Runs ZooKeeper's own {@link ZooKeeperServerEmbedded} with {@link ExitHandler#LOG_ONLY}: a server failure
 * is logged and never calls {@code System.exit} on the host JVM (curator-test's {@code TestingServer} uses the
 * exiting handler, so it is kept for tests). ZooKeeper keeps that handler in a JVM-wide setting. The admin HTTP
 * server (port 8080 by default) is not started; the four-letter word {@code srvr} stays allowed, so other
 * processes can recognise the server.
 */
final class ZooKeeperServerLauncher {
    private static final int TICK_MS = 1_000;
    private static final int MIN_SESSION_TIMEOUT_MS = 2_000;
    private static final int MAX_SESSION_TIMEOUT_MS = 120_000;

    private ZooKeeperServerLauncher() {
    }

    /**
     * Starts a standalone ZooKeeper server listening on {@code host:port} only, with its data under
     * {@code dataDir}, and returns once it serves (or throws).
     *
     * @return closing it stops the server
     * @throws Exception if the server does not start within {@code startTimeout}
     */
    static AutoCloseable start(String host, int port, Path dataDir, Duration startTimeout) throws Exception {
        Properties props = new Properties();
        props.setProperty("dataDir", dataDir.resolve("data").toString());
        props.setProperty("clientPort", String.valueOf(port));
        props.setProperty("clientPortAddress", host); // loopback only
        props.setProperty("tickTime", String.valueOf(TICK_MS));
        props.setProperty("minSessionTimeout", String.valueOf(MIN_SESSION_TIMEOUT_MS));
        props.setProperty("maxSessionTimeout", String.valueOf(MAX_SESSION_TIMEOUT_MS));
        props.setProperty("admin.enableServer", "false");
        props.setProperty("maxCnxns", "0"); // no limit, said explicitly (else a warning at every start)
        props.setProperty("4lw.commands.whitelist", "srvr");
        ZooKeeperServerEmbedded server = ZooKeeperServerEmbedded.builder()
                .baseDir(dataDir)
                .configuration(props)
                .exitHandler(ExitHandler.LOG_ONLY)
                .build();
        try {
            server.start(startTimeout.toMillis());
        } catch (Exception | Error e) {
            server.close();
            throw e;
        }
        return server::close;
    }
}
