package io.kestrel.rpc.registry.zookeeper;

import static io.kestrel.rpc.registry.zookeeper.ZooKeeperTestSupport.awaitTrue;
import static io.kestrel.rpc.registry.zookeeper.ZooKeeperTestSupport.provider;
import static io.kestrel.rpc.registry.zookeeper.ZooKeeperTestSupport.registry;
import static io.kestrel.rpc.registry.zookeeper.ZooKeeperTestSupport.uniqueService;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.registry.ConsumerInfo;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.registry.zookeeper.ZooKeeperTestSupport.RecordingListener;
import io.kestrel.rpc.testing.LogCapture;
import java.util.List;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A provider's registry through a ZooKeeper outage longer than its session: it says when its records are gone
 * and the records come back by themselves, while ZooKeeper's and Curator's own error lines stay few.
 */
@Timeout(90)
class RegistrationLossTest {

    @Test
    void aProviderSaysWhenItIsNoLongerRegisteredAndThePartitionDoesNotFloodTheLog() throws Exception {
        ServiceKey service = uniqueService("1.0", "");
        ProviderInfo p1 = provider(service, 20011);
        LogCapture log = new LogCapture();
        try (TestingServer server = ZooKeeperTestSupport.startServer();
                TcpProxy network = new TcpProxy(server.getPort());
                ZooKeeperRegistry provider = registry(network.connectString());
                ZooKeeperRegistry consumer = registry(network.connectString())) {
            provider.register(p1);
            RecordingListener listener = new RecordingListener();
            consumer.subscribe(service, listener);
            listener.await("p1", l -> l.equals(List.of(p1)));

            network.blackhole(); // a partition: both processes keep running, no byte reaches ZooKeeper
            // beyond the session (3 s): Curator declares the session lost while the partition lasts
            awaitTrue("the provider says it is no longer registered",
                    () -> log.text().contains("session lost: this process is no longer registered"));
            String during = log.text();
            assertTrue(during.contains(p1.toString()), "names the record that is gone:\n" + during);
            // work that needs ZooKeeper during the partition: Curator retries it in the background
            consumer.registerConsumer(new ConsumerInfo("127.0.0.1", service, java.util.Map.of()));
            long lostAt = System.nanoTime();
            awaitTrue("8 s more of partition", () -> System.nanoTime() - lostAt > 8_000_000_000L);
            long closing = System.nanoTime();
            consumer.close(); // while partitioned: its record is not deleted (it ends with the session), and closed
            assertTrue(System.nanoTime() - closing < 5_000_000_000L, "closing waited on the partitioned ZooKeeper");

            network.heal();
            try (ZooKeeperRegistry fresh = registry(server.getConnectString())) {
                RecordingListener seen = new RecordingListener();
                fresh.subscribe(service, seen);
                seen.await("the provider's record, created again in a new session", l -> l.equals(List.of(p1)));
            }
        } finally {
            log.close();
        }
        String all = log.text();
        long zooKeeperErrors = all.lines().filter(l -> l.contains(" ERROR org.apache.")).count();
        long backgroundWarnings = all.lines().filter(l -> l.contains("WARN") && l.contains("ZooKeeper registry "))
                .count();
        System.out.printf("outage: %d ERROR lines from ZooKeeper/Curator, %d background warnings%n",
                zooKeeperErrors, backgroundWarnings);
        String excerpt = all.substring(0, Math.min(all.length(), 6_000));
        assertTrue(zooKeeperErrors <= 3, zooKeeperErrors + " ERROR lines from ZooKeeper/Curator:\n" + excerpt);
        assertTrue(backgroundWarnings <= 3, backgroundWarnings + " background warnings:\n" + excerpt);
        assertTrue(!all.contains("StackOverflowError"), "closing during the partition recursed:\n" + excerpt);
    }
}
