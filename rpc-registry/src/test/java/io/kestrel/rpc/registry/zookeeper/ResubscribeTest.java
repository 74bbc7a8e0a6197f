package io.kestrel.rpc.registry.zookeeper;

import static io.kestrel.rpc.registry.zookeeper.ZooKeeperTestSupport.awaitTrue;
import static io.kestrel.rpc.registry.zookeeper.ZooKeeperTestSupport.provider;
import static io.kestrel.rpc.registry.zookeeper.ZooKeeperTestSupport.registry;
import static io.kestrel.rpc.registry.zookeeper.ZooKeeperTestSupport.uniqueService;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.registry.zookeeper.ZooKeeperTestSupport.RecordingListener;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A consumer's view converges to what ZooKeeper holds after every kind of ZooKeeper event: a server that comes
 * back empty with a provider already registered again before the consumer reconnects (the case an old cache
 * never saw), a restart with the same data, and an expired session.
 */
@Timeout(90)
class ResubscribeTest {

    /** A loopback ZooKeeper on {@code port} with a fresh data directory (deleted on close). */
    private static TestingServer emptyServerOn(int port) throws Exception {
        return new TestingServer(new InstanceSpec(null, port, -1, -1, true, -1, 250, -1,
                Map.of("clientPortAddress", "127.0.0.1", "admin.enableServer", "false"), "127.0.0.1"), true);
    }

    /** Writes a provider record the way a provider's registry does, with a client of its own. */
    private static CuratorFramework registerRaw(String connectString, ProviderInfo p) throws Exception {
        CuratorFramework c = CuratorFrameworkFactory.newClient(connectString, new RetryOneTime(100));
        c.start();
        c.blockUntilConnected(10, TimeUnit.SECONDS);
        c.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL)
                .forPath(ZooKeeperPaths.providersPath("/kestrel", p.service()) + "/"
                        + URLEncoder.encode(p.toUrl(), StandardCharsets.UTF_8), p.toUrl().getBytes(StandardCharsets.UTF_8));
        return c;
    }

    @Test
    void aProviderRegisteredOnAServerThatCameBackEmptyIsSeenEvenWhenItWasThereBeforeTheConsumerReconnected()
            throws Exception {
        ServiceKey service = uniqueService("1.0", "");
        ProviderInfo before = provider(service, 20001);
        ProviderInfo after = provider(service, 20002); // the provider restarted: another record
        int port = ZooKeeperTestSupport.unusedPort();
        TestingServer first = emptyServerOn(port);
        String connect = "127.0.0.1:" + port;
        try (ZooKeeperRegistry consumer = registry(connect)) {
            RecordingListener listener = new RecordingListener();
            try (CuratorFramework p = registerRaw(connect, before)) {
                consumer.subscribe(service, listener);
                listener.await("the first provider", l -> l.equals(List.of(before)));
                first.close(); // the ZooKeeper and its data are gone
            }
            awaitTrue("consumer notices the outage", () -> !consumer.isConnected());
            try (TestingServer second = emptyServerOn(port);
                    CuratorFramework p = registerRaw(connect, after)) {
                // the new record is there before the consumer gets its new session (its old one is unknown here)
                listener.await("the provider registered on the empty server", l -> l.equals(List.of(after)));
            }
        } finally {
            first.close();
        }
    }

    @Test
    void aRestartWithTheSameDataAndAnExpiredSessionBothConverge() throws Exception {
        ServiceKey service = uniqueService("", "");
        ProviderInfo p1 = provider(service, 20001);
        ProviderInfo p2 = provider(service, 20002);
        try (TestingServer server = ZooKeeperTestSupport.startServer();
                TcpProxy proxy = new TcpProxy(server.getPort());
                ZooKeeperRegistry provider = registry(server.getConnectString());
                ZooKeeperRegistry consumer = registry(proxy.connectString())) {
            provider.register(p1);
            RecordingListener listener = new RecordingListener();
            consumer.subscribe(service, listener);
            listener.await("p1", l -> l.equals(List.of(p1)));

            server.restart();
            awaitTrue("provider reconnects", provider::isConnected);
            provider.register(p2);
            listener.await("p1 and p2 after a restart with the same data", l -> l.equals(List.of(p1, p2)));

            // the consumer is cut from ZooKeeper longer than its session: the session expires on the server
            proxy.kill();
            awaitTrue("consumer notices the cut", () -> !consumer.isConnected());
            provider.unregister(p1);
            TimeUnit.MILLISECONDS.sleep(ZooKeeperTestSupport.SESSION.toMillis() + 1_000); // past the session
            try (TcpProxy back = TcpProxy.onPort(proxy.port(), server.getPort())) {
                listener.await("only p2 after the session expired", l -> l.equals(List.of(p2)));
            }
        }
    }
}
