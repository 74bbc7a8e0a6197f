package io.kestrel.rpc.registry.zookeeper;

import static io.kestrel.rpc.registry.zookeeper.ZooKeeperTestSupport.awaitTrue;
import static io.kestrel.rpc.registry.zookeeper.ZooKeeperTestSupport.provider;
import static io.kestrel.rpc.registry.zookeeper.ZooKeeperTestSupport.registry;
import static io.kestrel.rpc.registry.zookeeper.ZooKeeperTestSupport.uniqueService;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.registry.zookeeper.ZooKeeperTestSupport.RecordingListener;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class ZooKeeperOutageTest {

    @Test
    void subscriberKeepsLastListWhileZooKeeperIsDownAndDiscoversNewProvidersAfterRestart() throws Exception {
        ServiceKey service = uniqueService("1.0", "");
        ProviderInfo p1 = provider(service, 20001);
        ProviderInfo p2 = provider(service, 20002);
        try (TestingServer server = ZooKeeperTestSupport.startServer();
                ZooKeeperRegistry provider = registry(server.getConnectString());
                ZooKeeperRegistry consumer = registry(server.getConnectString())) {
            provider.register(p1);
            RecordingListener listener = new RecordingListener();
            consumer.subscribe(service, listener);
            listener.await("p1", l -> l.equals(List.of(p1)));

            server.stop();
            awaitTrue("consumer notices the outage", () -> !consumer.isConnected());
            // Longer than the session timeout, so the client goes through SUSPENDED and LOST.
            long quietMs = ZooKeeperTestSupport.SESSION.toMillis() + 1_500;
            assertNull(listener.calls.poll(quietMs, TimeUnit.MILLISECONDS),
                    "listeners are told nothing while ZooKeeper is down");
            assertEquals(List.of(p1), consumer.lastToldProviders(service));

            server.restart();
            awaitTrue("provider reconnects", provider::isConnected);
            provider.register(p2);
            listener.await("p1 (re-registered) and p2", l -> l.equals(List.of(p1, p2)));
            assertTrue(listener.history().stream().allMatch(l -> l.contains(p1) || l.isEmpty()));
        }
    }
}
