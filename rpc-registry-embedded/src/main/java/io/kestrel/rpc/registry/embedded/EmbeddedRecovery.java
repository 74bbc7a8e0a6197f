package io.kestrel.rpc.registry.embedded;

import io.kestrel.rpc.api.RegistryException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a process that joined the shared embedded ZooKeeper does when a registry on it loses its connection: the
 * host may be gone, so it tries to take over hosting (or waits for another process to), then has every registry
 * here start a new session. One recovery runs at a time, on its own daemon thread. Thread-safe.
 */
final class EmbeddedRecovery {
    private static final Logger log = LoggerFactory.getLogger(EmbeddedZooKeeper.class); // its messages, as before

    private final EmbeddedZooKeeper server;
    private final EmbeddedHosting hosting;
    private final AtomicBoolean recovering = new AtomicBoolean();
    private volatile boolean stopped;

    EmbeddedRecovery(EmbeddedZooKeeper server, EmbeddedHosting hosting) {
        this.server = server;
        this.hosting = hosting;
    }

    /** A registry lost its connection; starts a recovery unless one runs, the server is ours or private. */
    void connectionLost() {
        if (!server.isShared() || stopped || server.isHostedHere() || !recovering.compareAndSet(false, true)) {
            return;
        }
        Thread t = new Thread(this::recover, "kestrel-embedded-zookeeper-recovery");
        t.setDaemon(true);
        t.start();
    }

    /** The last lease was closed: a running recovery ends at its next step. */
    void stop() {
        stopped = true;
    }

    private void recover() {
        try {
            pause(ThreadLocalRandom.current().nextLong(50, 250));
            while (!stopped) {
                boolean ready;
                try {
                    ready = server.isHostedHere() || hosting.hostOrJoin(true);
                } catch (RegistryException e) {
                    log.warn("Embedded ZooKeeper at {} is gone and cannot be taken over yet: {}", server.address(),
                            e.getMessage());
                    ready = false;
                    pause(2_000);
                }
                if (ready) {
                    if (!server.isHostedHere()) {
                        log.info("Embedded ZooKeeper at {} is back (hosted by process {}); reconnecting",
                                server.address(), hosting.hostPid());
                    }
                    server.sessionResetters.forEach(Runnable::run);
                    return;
                }
                pause(200);
            }
        } finally {
            recovering.set(false);
        }
    }

    static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
