package io.kestrel.rpc.registry.zookeeper;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Starts the ZooKeeper server that an {@code embedded} registry hosts. It lives in a separate artifact,
 * {@code io.kestrel:rpc-registry-embedded}, so that an application that only joins an embedded ZooKeeper, or
 * uses a real one, does not carry the server and its libraries. Found with {@link java.util.ServiceLoader};
 * not meant to be implemented by users.
 */
public interface EmbeddedServerLauncher {
    /** The artifact that provides the launcher, for messages. */
    String ARTIFACT = "io.kestrel:rpc-registry-embedded";

    /**
     * Starts a standalone ZooKeeper server listening on {@code host:port} only, with its data under
     * {@code dataDir}, and returns once it serves (or throws).
     *
     * @return closing it stops the server
     * @throws Exception if the server does not start within {@code startTimeout}
     */
    AutoCloseable start(String host, int port, Path dataDir, Duration startTimeout) throws Exception;
}
