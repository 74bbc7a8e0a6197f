package io.kestrel.rpc.core.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.RegistryException;
import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.api.registry.Registries;
import io.kestrel.rpc.api.registry.Registry;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.TestRuntimes;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.core.fixture.EchoServiceImpl;
import io.kestrel.rpc.testing.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 34, item 6, as it was found: a plain ZooKeeper started on the embedded registry's port before the
 * applications, holding a provider record that points at the squatter's own server. Provider and consumer
 * (on {@code embedded://PORT}) refuse it with an error naming the port and the fix; the squatter receives no
 * record and its server no connection, so no call and no argument.
 */
@Timeout(150)
class EmbeddedRegistrySquatterTest {

    @Test
    void aZooKeeperSquattingTheEmbeddedPortIsRefusedByProviderAndConsumer() throws Exception {
        int port = freePort();
        ServiceKey key = new ServiceKey(EchoService.class.getName(), "", "");
        AtomicInteger trapped = new AtomicInteger();
        try (TestingServer squatter = new TestingServer(port, true);
                ServerSocket trap = trap(trapped);
                Registry attacker = Registries.create(RegistryConfig.builder()
                        .address("zookeeper://127.0.0.1:" + port).build());
                CuratorFramework look = CuratorFrameworkFactory.newClient(squatter.getConnectString(),
                        new RetryOneTime(100))) {
            attacker.register(new ProviderInfo("127.0.0.1", trap.getLocalPort(), key, List.of((byte) 8, (byte) 2),
                    1_000, List.of("echo")));
            look.start();
            List<String> before = tree(look, "/");
            RegistryConfig embedded = RegistryConfig.builder().address("embedded://" + port)
                    .connectionTimeout(Duration.ofSeconds(5)).build();

            RegistryException provider = assertThrows(RegistryException.class, () -> {
                try (RpcRuntime runtime = RpcRuntime.builder().protocol(TestRuntimes.loopback().build())
                        .registry(embedded).build()) {
                    runtime.export(ServiceConfig.builder(EchoService.class, new EchoServiceImpl()).build());
                }
            });
            assertRefusal(provider, port);

            RegistryException consumer = assertThrows(RegistryException.class, () -> {
                try (RpcRuntime runtime = RpcRuntime.builder().registry(embedded).build()) {
                    runtime.refer(ReferenceConfig.builder(EchoService.class).timeout(Duration.ofSeconds(2)).build())
                            .echo("bearer-token-and-arguments");
                }
            });
            assertRefusal(consumer, port);

            assertEquals(before, tree(look, "/"), "the squatter received no record");
            assertEquals(0, trapped.get(), "the squatter's provider received no connection");
        }
    }

    /**
     * The squatter waits for the host to end and takes the port (this test holds the host lock meanwhile, so
     * that this JVM does not take over first): the consumer that had joined does not reconnect to it, so the
     * squatter gets no record and its provider no call, until this user's embedded ZooKeeper is back.
     */
    @Test
    void aSquatterTakingThePortAfterTheHostEndedGetsNoReconnect() throws Exception {
        int port = EmbeddedRegistryAcrossJvmsTest.freePort();
        ServiceKey key = new ServiceKey(EchoService.class.getName(), "a", "");
        // short timeouts: closing the consumer while its registry is unreachable waits for them
        RegistryConfig embedded = RegistryConfig.builder().address("embedded://" + port)
                .sessionTimeout(Duration.ofSeconds(4)).connectionTimeout(Duration.ofSeconds(3)).build();
        try (ChildJvm host = ChildJvm.start("host-a", List.of(), EmbeddedRegistryMain.class, "a",
                String.valueOf(port))) {
            host.awaitLine("^READY$", 60_000);
            try (RpcRuntime consumer = RpcRuntime.builder().registry(embedded).build()) {
                EchoService echo = consumer.refer(ReferenceConfig.builder(EchoService.class).version("a")
                        .timeout(Duration.ofSeconds(5)).build());
                assertEquals("before", echo.echo("before"));
                try (FileChannel lockFile = FileChannel.open(EmbeddedRegistryAcrossJvmsTest.lockFile(port),
                        StandardOpenOption.WRITE)) {
                    host.signal("KILL");
                    FileLock lock = takeLock(lockFile);
                    AtomicInteger trapped = new AtomicInteger();
                    try (TestingServer squatter = new TestingServer(port, true);
                            ServerSocket trap = trap(trapped);
                            Registry attacker = Registries.create(RegistryConfig.builder()
                                    .address("zookeeper://127.0.0.1:" + port).build());
                            CuratorFramework look = CuratorFrameworkFactory.newClient(squatter.getConnectString(),
                                    new RetryOneTime(100))) {
                        attacker.register(new ProviderInfo("127.0.0.1", trap.getLocalPort(), key,
                                List.of((byte) 8, (byte) 2), 1_000, List.of("echo")));
                        look.start();
                        List<String> before = tree(look, "/");
                        long end = System.nanoTime() + Duration.ofSeconds(6).toNanos(); // the client retries each second
                        int answered = 0;
                        while (System.nanoTime() < end) {
                            try {
                                echo.echo("bearer-token-and-arguments");
                                answered++;
                            } catch (RuntimeException expected) {
                                // the provider is gone and the squatter's is not listed: nothing answers
                            }
                            Thread.sleep(200); // kept: calls spread over the 6 s window nothing may answer in
                        }
                        assertEquals(0, answered, "no call answered");
                        assertEquals(0, trapped.get(), "the squatter's provider received no connection");
                        assertEquals(before, tree(look, "/"), "the squatter received no record");
                        consumer.close(); // while the lock is held: this JVM does not take over hosting afterwards
                    } finally {
                        lock.release();
                    }
                }
            }
        }
    }

    /** The host lock, as soon as the dead host's process lets it go. */
    private static FileLock takeLock(FileChannel file) throws Exception {
        AtomicReference<FileLock> lock = new AtomicReference<>();
        Await.until("the killed host's lock released", Duration.ofSeconds(20), () -> {
            try {
                lock.set(file.tryLock());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return lock.get() != null;
        });
        return lock.get();
    }

    private static void assertRefusal(RegistryException e, int port) {
        String m = e.getMessage();
        assertTrue(m.startsWith("Another process, not started by Kestrel for user " + System.getProperty("user.name")
                + ", listens on 127.0.0.1:" + port + ": it is a ZooKeeper, but no Kestrel process of this user hosts "
                + "that port (its host lock is free). This process neither joins it nor registers or reads anything "
                + "there. Stop that process (find it with: ss -ltnp 'sport = :" + port + "')"), m);
        assertTrue(m.contains("embedded://PORT, or -Dkestrel.rpc.registry.embedded.port=PORT"), m);
        assertTrue(m.contains("Kestrel's host lock and secret are in "
                + System.getProperty("kestrel.rpc.registry.embedded.dir")), m);
    }

    /** The squatter's provider: counts the connections it accepts. */
    private static ServerSocket trap(AtomicInteger accepted) throws IOException {
        ServerSocket trap = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(() -> {
            while (!trap.isClosed()) {
                try (Socket s = trap.accept()) {
                    accepted.incrementAndGet();
                } catch (IOException e) {
                    return;
                }
            }
        }, "squatter-provider");
        accept.setDaemon(true);
        accept.start();
        return trap;
    }

    /** Every node under {@code path}, depth first; one whose children are closed to this client says so. */
    private static List<String> tree(CuratorFramework client, String path) throws Exception {
        List<String> all = new ArrayList<>();
        List<String> children;
        try {
            children = client.getChildren().forPath(path);
        } catch (KeeperException.NoAuthException e) {
            return List.of(path + " (children closed to this client)");
        }
        for (String child : children) {
            String p = ZKPaths.makePath(path, child);
            all.add(p);
            all.addAll(tree(client, p));
        }
        return all;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
