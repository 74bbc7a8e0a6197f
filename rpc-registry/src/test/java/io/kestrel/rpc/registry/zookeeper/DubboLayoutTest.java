package io.kestrel.rpc.registry.zookeeper;

import static io.kestrel.rpc.registry.zookeeper.ZooKeeperTestSupport.awaitTrue;
import static io.kestrel.rpc.registry.zookeeper.ZooKeeperTestSupport.registry;
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
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.KillSession;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Providers and consumers on the dubbo protocol in Dubbo's layout, on a real in-process ZooKeeper. */
@Timeout(60)
class DubboLayoutTest {
    private static final AtomicInteger COUNTER = new AtomicInteger();
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

    private static String uniqueInterface() {
        return "org.example.Dubbo" + COUNTER.incrementAndGet();
    }

    private static ProviderInfo dubboProvider(ServiceKey service, int port) {
        return new ProviderInfo("127.0.0.1", port, service, List.of((byte) 2), 100, List.of("greet"))
                .withAttributes(Map.of(ProviderInfo.PROTOCOL, "dubbo", ProviderInfo.START_TIME, "1795000000000"));
    }

    /** Writes a node the way a stock Dubbo provider does: ephemeral, under persistent folders, no data needed. */
    private static String writeStock(String iface, String url) throws Exception {
        String path = "/dubbo/" + iface + "/providers/" + URLEncoder.encode(url, StandardCharsets.UTF_8);
        raw.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(path);
        return path;
    }

    @Test
    void aDubboProviderIsAnEphemeralNodeInDubbosLayoutUnderPersistentFoldersAndNotInTheNativeOne() throws Exception {
        String iface = uniqueInterface();
        ServiceKey service = new ServiceKey(iface, "1.0", "blue");
        ProviderInfo p = dubboProvider(service, 20880);
        String node = "/dubbo/" + iface + "/providers/" + URLEncoder.encode(DubboUrls.providerUrl(p),
                StandardCharsets.UTF_8);
        try (ZooKeeperRegistry registry = registry(server.getConnectString())) {
            registry.register(p);
            Stat stat = raw.checkExists().forPath(node);
            assertNotNull(stat, node);
            assertNotEquals(0, stat.getEphemeralOwner(), "provider nodes are ephemeral");
            assertEquals(DubboUrls.providerUrl(p), new String(raw.getData().forPath(node), StandardCharsets.UTF_8));
            for (String folder : List.of("/dubbo", "/dubbo/" + iface, "/dubbo/" + iface + "/providers")) {
                Stat f = raw.checkExists().forPath(folder);
                // persistent: 0; a container node's owner is Long.MIN_VALUE, an ephemeral's its session
                assertEquals(0, f.getEphemeralOwner(), folder + " is a persistent node");
            }
            assertNull(raw.checkExists().forPath("/kestrel/" + iface), "nothing in the native layout");

            registry.unregister(p);
            assertNull(raw.checkExists().forPath(node), "unregister deletes the node");
        }
        // A container folder would be deleted by the server once empty; Dubbo's consumers need it to stay.
        assertNotNull(raw.checkExists().forPath("/dubbo/" + iface + "/providers"), "the folder outlives its providers");
    }

    @Test
    void theDubboRootIsConfigurable() throws Exception {
        String iface = uniqueInterface();
        ServiceKey service = new ServiceKey(iface, "", "");
        ProviderInfo p = dubboProvider(service, 20880);
        try (ZooKeeperRegistry provider = (ZooKeeperRegistry) new ZooKeeperRegistryFactory().create(
                    io.kestrel.rpc.api.config.RegistryConfig.builder().address("zookeeper://" + server.getConnectString())
                            .dubboRoot("team-a").build());
                ZooKeeperRegistry consumer = (ZooKeeperRegistry) new ZooKeeperRegistryFactory().create(
                    io.kestrel.rpc.api.config.RegistryConfig.builder().address("zookeeper://" + server.getConnectString())
                            .dubboRoot("/team-a").build())) {
            provider.register(p);
            assertEquals(1, raw.getChildren().forPath("/team-a/" + iface + "/providers").size());
            RecordingListener listener = new RecordingListener();
            consumer.subscribe(service, "dubbo", listener);
            listener.await("our provider under /team-a", l -> l.size() == 1 && l.get(0).address().equals("127.0.0.1:20880"));
        }
    }

    @Test
    void aDubboSubscriberSeesStockProvidersOfItsVersionAndGroupAndFollowsChanges() throws Exception {
        String iface = uniqueInterface();
        ServiceKey wanted = new ServiceKey(iface, "1.0", "");
        String base = "dubbo://127.0.0.1:%d/" + iface + "?application=stock&dubbo=2.0.2&interface=" + iface
                + "&methods=greet&side=provider&timestamp=1795000000000";
        String a = writeStock(iface, String.format(base, 30001) + "&version=1.0&weight=50");
        writeStock(iface, String.format(base, 30002) + "&version=2.0");
        writeStock(iface, String.format(base, 30003) + "&version=1.0&enabled=false");
        writeStock(iface, "tri://127.0.0.1:30004/" + iface + "?interface=" + iface + "&version=1.0");
        writeStock(iface, "garbage-node");
        try (ZooKeeperRegistry consumer = registry(server.getConnectString())) {
            RecordingListener listener = new RecordingListener();
            consumer.subscribe(wanted, "dubbo", listener);
            List<ProviderInfo> first = listener.last;
            assertNotNull(first, "told before subscribe returns");
            assertEquals(1, first.size(), first.toString());
            assertEquals("127.0.0.1:30001", first.get(0).address());
            assertEquals(50, first.get(0).weight());
            assertEquals("dubbo", first.get(0).protocol());

            writeStock(iface, String.format(base, 30005) + "&version=1.0");
            listener.await("a second provider", l -> l.size() == 2);
            raw.delete().forPath(a);
            listener.await("only the new one", l -> l.size() == 1 && l.get(0).port() == 30005);

            RecordingListener nativeListener = new RecordingListener();
            consumer.subscribe(wanted, nativeListener);
            assertEquals(List.of(), nativeListener.last, "native references do not see Dubbo's layout");

            consumer.unsubscribe(wanted, "dubbo", listener);
            writeStock(iface, String.format(base, 30006) + "&version=1.0");
            assertNull(listener.calls.poll(500, TimeUnit.MILLISECONDS), "unsubscribed listener is told nothing");
        }
    }

    @Test
    void ourDubboProviderIsSeenByADubboSubscriberAndReRegistersAfterSessionExpiry() throws Exception {
        String iface = uniqueInterface();
        ServiceKey service = new ServiceKey(iface, "", "");
        ProviderInfo p = dubboProvider(service, 20990);
        String node = "/dubbo/" + iface + "/providers/" + URLEncoder.encode(DubboUrls.providerUrl(p),
                StandardCharsets.UTF_8);
        try (ZooKeeperRegistry provider = registry(server.getConnectString());
                ZooKeeperRegistry consumer = registry(server.getConnectString())) {
            provider.register(p);
            RecordingListener listener = new RecordingListener();
            consumer.subscribe(service, "dubbo", listener);
            listener.await("our provider", l -> l.size() == 1 && l.get(0).address().equals("127.0.0.1:20990"));
            long oldSession = provider.curator().getZookeeperClient().getZooKeeper().getSessionId();

            KillSession.kill(provider.curator().getZookeeperClient().getZooKeeper());

            awaitTrue("the node owned by the provider's new session", () -> {
                try {
                    long session = provider.curator().getZookeeperClient().getZooKeeper().getSessionId();
                    Stat stat = raw.checkExists().forPath(node);
                    return session != oldSession && stat != null && stat.getEphemeralOwner() == session;
                } catch (Exception e) {
                    return false;
                }
            });
            listener.await("listed after re-registration", l -> l.size() == 1);
        }
    }

    @Test
    void aDubboConsumerRecordGoesToDubbosConsumersFolderAndSurvivesSessionExpiry() throws Exception {
        String iface = uniqueInterface();
        ConsumerInfo c = new ConsumerInfo("127.0.0.1", new ServiceKey(iface, "1.0", ""),
                Map.of(ProviderInfo.PROTOCOL, "dubbo", ProviderInfo.PID, "5", ProviderInfo.START_TIME, "1"));
        String node = "/dubbo/" + iface + "/consumers/" + URLEncoder.encode(DubboUrls.consumerUrl(c),
                StandardCharsets.UTF_8);
        try (ZooKeeperRegistry consumer = registry(server.getConnectString())) {
            consumer.registerConsumer(c);
            assertNotEquals(0, raw.checkExists().forPath(node).getEphemeralOwner());
            long oldSession = consumer.curator().getZookeeperClient().getZooKeeper().getSessionId();
            KillSession.kill(consumer.curator().getZookeeperClient().getZooKeeper());
            awaitTrue("the consumer node owned by the new session", () -> {
                try {
                    long session = consumer.curator().getZookeeperClient().getZooKeeper().getSessionId();
                    Stat stat = raw.checkExists().forPath(node);
                    return session != oldSession && stat != null && stat.getEphemeralOwner() == session;
                } catch (Exception e) {
                    return false;
                }
            });
            consumer.unregisterConsumer(c);
            assertNull(raw.checkExists().forPath(node));
        }
    }

    @Test
    void anUnknownProtocolIsRefusedNamingIt() throws Exception {
        ProviderInfo p = new ProviderInfo("127.0.0.1", 1, new ServiceKey(uniqueInterface(), "", ""), List.of((byte) 2),
                100, List.of()).withAttributes(Map.of(ProviderInfo.PROTOCOL, "grpc"));
        try (ZooKeeperRegistry registry = registry(server.getConnectString())) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> registry.register(p));
            assertTrue(e.getMessage().contains("protocol 'grpc' is neither kestrel nor dubbo"), e.getMessage());
            UnsupportedOperationException u = assertThrows(UnsupportedOperationException.class,
                    () -> registry.subscribe(p.service(), "grpc", new RecordingListener()));
            assertTrue(u.getMessage().contains("not 'grpc'"), u.getMessage());
        }
    }
}
