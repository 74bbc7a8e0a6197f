package io.kestrel.rpc.registry.zookeeper;

import static io.kestrel.rpc.registry.zookeeper.ZooKeeperTestSupport.awaitTrue;
import static io.kestrel.rpc.registry.zookeeper.ZooKeeperTestSupport.provider;
import static io.kestrel.rpc.registry.zookeeper.ZooKeeperTestSupport.registry;
import static io.kestrel.rpc.registry.zookeeper.ZooKeeperTestSupport.uniqueService;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.registry.ConsumerInfo;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.registry.zookeeper.ZooKeeperTestSupport.RecordingListener;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.KillSession;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class ZooKeeperRegistryTest {
    private static TestingServer server;
    private static CuratorFramework raw;

    @BeforeAll
    static void startZooKeeper() throws Exception {
        server = ZooKeeperTestSupport.startServer();
        raw = CuratorFrameworkFactory.newClient(server.getConnectString(), new RetryOneTime(100));
        raw.start();
        assertTrue(raw.blockUntilConnected(10, TimeUnit.SECONDS));
    }

    @AfterAll
    static void stopZooKeeper() throws Exception {
        raw.close();
        server.close();
    }

    @Test
    void subscriberIsToldTheCurrentListBeforeSubscribeReturns() throws Exception {
        ServiceKey service = uniqueService("1.0", "");
        ProviderInfo p1 = provider(service, 20001);
        try (ZooKeeperRegistry provider = registry(server.getConnectString());
                ZooKeeperRegistry consumer = registry(server.getConnectString())) {
            provider.register(p1);
            RecordingListener listener = new RecordingListener();
            consumer.subscribe(service, listener);
            assertEquals(List.of(p1), listener.last);

            RecordingListener empty = new RecordingListener();
            consumer.subscribe(uniqueService("", ""), empty);
            assertEquals(List.of(), empty.last, "a service nobody provides is told an empty list");
        }
    }

    @Test
    void registerAndUnregisterAreSeenBySubscriber() throws Exception {
        ServiceKey service = uniqueService("1.0", "blue");
        ProviderInfo p1 = provider(service, 20001);
        ProviderInfo p2 = provider(service, 20002);
        try (ZooKeeperRegistry provider = registry(server.getConnectString());
                ZooKeeperRegistry consumer = registry(server.getConnectString())) {
            RecordingListener listener = new RecordingListener();
            consumer.subscribe(service, listener);
            listener.await("initial empty list", List::isEmpty);

            provider.register(p1);
            provider.register(p2);
            provider.register(p2); // no-op
            listener.await("p1 and p2", l -> l.equals(List.of(p1, p2)));

            provider.unregister(p1);
            listener.await("only p2", l -> l.equals(List.of(p2)));
            provider.unregister(p1); // no-op

            consumer.unsubscribe(service, listener);
            provider.unregister(p2);
            assertNull(listener.calls.poll(500, TimeUnit.MILLISECONDS), "unsubscribed listener is told nothing");
        }
    }

    @Test
    void providerNodesFollowTheDocumentedLayout() throws Exception {
        ServiceKey versioned = new ServiceKey("com.example.LayoutService", "1.0", "g1");
        ServiceKey plain = new ServiceKey("com.example.LayoutService", "", "");
        ProviderInfo a = provider(versioned, 20001);
        ProviderInfo b = provider(plain, 20002);
        try (ZooKeeperRegistry provider = registry(server.getConnectString())) {
            provider.register(a);
            provider.register(b);
            String nodeA = "/kestrel/com.example.LayoutService/g1:1.0/providers/"
                    + URLEncoder.encode(a.toUrl(), StandardCharsets.UTF_8);
            String nodeB = "/kestrel/com.example.LayoutService/providers/"
                    + URLEncoder.encode(b.toUrl(), StandardCharsets.UTF_8);
            Stat statA = raw.checkExists().forPath(nodeA);
            Stat statB = raw.checkExists().forPath(nodeB);
            assertNotNull(statA, nodeA);
            assertNotNull(statB, nodeB);
            assertNotEquals(0, statA.getEphemeralOwner(), "provider nodes are ephemeral");
            assertEquals(a.toUrl(), new String(raw.getData().forPath(nodeA), StandardCharsets.UTF_8));
        }
    }

    @Test
    void malformedChildNodesAreSkipped() throws Exception {
        ServiceKey service = uniqueService("", "");
        ProviderInfo p1 = provider(service, 20001);
        String folder = ZooKeeperPaths.providersPath("/kestrel", service);
        raw.create().creatingParentsIfNeeded().forPath(folder + "/not-a-provider");
        ProviderInfo other = provider(uniqueService("", ""), 20009); // a record of another service
        raw.create().forPath(folder + "/" + URLEncoder.encode(other.toUrl(), StandardCharsets.UTF_8));
        try (ZooKeeperRegistry provider = registry(server.getConnectString());
                ZooKeeperRegistry consumer = registry(server.getConnectString())) {
            provider.register(p1);
            RecordingListener listener = new RecordingListener();
            consumer.subscribe(service, listener);
            listener.await("only the valid provider", l -> l.equals(List.of(p1)));
        }
    }

    @Test
    void publishedTimeoutTravelsThroughZooKeeperAndRecordsWithoutOneStillRead() throws Exception {
        ServiceKey service = uniqueService("1.0", "");
        ProviderInfo timed = new ProviderInfo("127.0.0.1", 20001, service, List.of((byte) 8), 100, List.of("echo"),
                Duration.ofMillis(250));
        // a record exactly as providers wrote it before the timeout field existed
        String old = "kestrel://127.0.0.1:20002/" + service.interfaceName()
                + "?version=1.0&group=&serialization=8,2&weight=100&methods=echo";
        raw.create().creatingParentsIfNeeded().forPath(ZooKeeperPaths.providersPath("/kestrel", service) + "/"
                + URLEncoder.encode(old, StandardCharsets.UTF_8), old.getBytes(StandardCharsets.UTF_8));
        try (ZooKeeperRegistry provider = registry(server.getConnectString());
                ZooKeeperRegistry consumer = registry(server.getConnectString())) {
            provider.register(timed);
            RecordingListener listener = new RecordingListener();
            consumer.subscribe(service, listener);
            List<ProviderInfo> seen = listener.await("both providers", l -> l.size() == 2);
            assertEquals(Optional.of(Duration.ofMillis(250)), seen.get(0).timeout(), seen.toString());
            assertEquals(20002, seen.get(1).port());
            assertEquals(Optional.empty(), seen.get(1).timeout(), "an old record publishes no timeout");
            assertEquals(old, seen.get(1).toUrl(), "a record without a timeout keeps the old form");
        }
    }

    @Test
    void crashedProviderDisappearsFromSubscribersWhenItsSessionTimesOut() throws Exception {
        ServiceKey service = uniqueService("2.0", "");
        ProviderInfo p1 = provider(service, 20001);
        try (ZooKeeperRegistry consumer = registry(server.getConnectString());
                TcpProxy network = new TcpProxy(server.getPort())) {
            ZooKeeperRegistry provider = registry(network.connectString());
            provider.register(p1);
            RecordingListener listener = new RecordingListener();
            consumer.subscribe(service, listener);
            listener.await("p1", l -> l.equals(List.of(p1)));

            network.kill(); // the provider "dies": no unregister, no close-session, just silence
            listener.await("p1 gone after its session timed out", List::isEmpty);

            awaitTrue("provider notices", () -> !provider.isConnected());
            provider.close(); // does not block on the unreachable ZooKeeper
        }
    }

    @Test
    void closeUnregistersEverythingItRegistered() throws Exception {
        ServiceKey s1 = uniqueService("", "");
        ServiceKey s2 = uniqueService("1.0", "");
        try (ZooKeeperRegistry consumer = registry(server.getConnectString())) {
            ZooKeeperRegistry provider = registry(server.getConnectString());
            provider.register(provider(s1, 20001));
            provider.register(provider(s2, 20001));
            RecordingListener l1 = new RecordingListener();
            RecordingListener l2 = new RecordingListener();
            consumer.subscribe(s1, l1);
            consumer.subscribe(s2, l2);
            l1.await("one provider", l -> l.size() == 1);
            l2.await("one provider", l -> l.size() == 1);

            provider.close();
            provider.close(); // idempotent
            l1.await("empty after close", List::isEmpty);
            l2.await("empty after close", List::isEmpty);
            assertThrows(IllegalStateException.class, () -> provider.register(provider(s1, 20002)));
        }
    }

    @Test
    void providerRegistersAgainAfterSessionExpiry() throws Exception {
        ServiceKey service = uniqueService("", "red");
        ProviderInfo p1 = provider(service, 20001);
        String node = ZooKeeperPaths.providerPath("/kestrel", p1);
        try (ZooKeeperRegistry provider = registry(server.getConnectString());
                ZooKeeperRegistry consumer = registry(server.getConnectString())) {
            provider.register(p1);
            RecordingListener listener = new RecordingListener();
            consumer.subscribe(service, listener);
            listener.await("p1", l -> l.equals(List.of(p1)));
            long oldSession = provider.curator().getZookeeperClient().getZooKeeper().getSessionId();

            KillSession.kill(provider.curator().getZookeeperClient().getZooKeeper());

            awaitTrue("p1's node owned by the provider's new session", () -> {
                try {
                    long session = provider.curator().getZookeeperClient().getZooKeeper().getSessionId();
                    Stat stat = raw.checkExists().forPath(node);
                    return session != oldSession && stat != null && stat.getEphemeralOwner() == session;
                } catch (Exception e) {
                    return false;
                }
            });
            listener.await("p1 listed after re-registration", l -> l.equals(List.of(p1)));
        }
    }

    @Test
    void subscriberKeepsWatchingAfterItsOwnSessionExpiry() throws Exception {
        ServiceKey service = uniqueService("3.0", "");
        ProviderInfo p1 = provider(service, 20001);
        ProviderInfo p2 = provider(service, 20002);
        try (ZooKeeperRegistry provider = registry(server.getConnectString());
                ZooKeeperRegistry consumer = registry(server.getConnectString())) {
            provider.register(p1);
            RecordingListener listener = new RecordingListener();
            consumer.subscribe(service, listener);
            listener.await("p1", l -> l.equals(List.of(p1)));
            long oldSession = consumer.curator().getZookeeperClient().getZooKeeper().getSessionId();

            KillSession.kill(consumer.curator().getZookeeperClient().getZooKeeper());
            awaitTrue("consumer reconnected with a new session", () -> {
                try {
                    return consumer.isConnected()
                            && consumer.curator().getZookeeperClient().getZooKeeper().getSessionId() != oldSession;
                } catch (Exception e) {
                    return false;
                }
            });

            provider.register(p2);
            listener.await("p1 and p2 after the consumer's new session", l -> l.equals(List.of(p1, p2)));
            assertTrue(listener.history().stream().noneMatch(List::isEmpty),
                    "the consumer's own session loss never empties the list: " + listener.history());
        }
    }

    @Test
    void consumerRecordsSitBesideProvidersAreCountedSurviveSessionExpiryAndGoOnClose() throws Exception {
        ServiceKey service = uniqueService("2.0", "green");
        ConsumerInfo me = new ConsumerInfo("10.0.0.7", service, java.util.Map.of(ProviderInfo.APPLICATION, "shop",
                ProviderInfo.PID, "4711", ProviderInfo.START_TIME, "1795000000000", ProviderInfo.FRAMEWORK_VERSION, "0.1.0"));
        String node = ZooKeeperPaths.consumerPath("/kestrel", me);
        assertEquals("/kestrel/" + service.interfaceName() + "/green:2.0/consumers/"
                + URLEncoder.encode(me.toUrl(), StandardCharsets.UTF_8), node);
        assertEquals(me, ConsumerInfo.fromUrl(me.toUrl()));
        try (ZooKeeperRegistry observer = registry(server.getConnectString())) {
            ZooKeeperRegistry consumer = registry(server.getConnectString());
            consumer.registerConsumer(me);
            consumer.registerConsumer(me); // a second reference of the same process to the same service
            assertEquals(List.of(me), observer.consumers(service));
            assertEquals(me.toUrl(), new String(raw.getData().forPath(node), StandardCharsets.UTF_8));

            long oldSession = consumer.curator().getZookeeperClient().getZooKeeper().getSessionId();
            KillSession.kill(consumer.curator().getZookeeperClient().getZooKeeper());
            awaitTrue("the consumer record owned by the consumer's new session", () -> {
                try {
                    long session = consumer.curator().getZookeeperClient().getZooKeeper().getSessionId();
                    Stat stat = raw.checkExists().forPath(node);
                    return session != oldSession && stat != null && stat.getEphemeralOwner() == session;
                } catch (Exception e) {
                    return false;
                }
            });

            consumer.unregisterConsumer(me);
            assertEquals(List.of(me), observer.consumers(service), "still held by the other reference");
            consumer.unregisterConsumer(me);
            awaitTrue("record removed after the last unregister", () -> observer.consumers(service).isEmpty());

            consumer.registerConsumer(me);
            assertEquals(List.of(me), observer.consumers(service));
            consumer.close();
            awaitTrue("record removed when the registry closes", () -> observer.consumers(service).isEmpty());
            assertEquals(List.of(), observer.consumers(uniqueService("", "")), "nobody calls a service never referred");
        }
    }
}
