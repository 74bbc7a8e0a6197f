package io.kestrel.rpc.registry.zookeeper;

import static io.kestrel.rpc.registry.zookeeper.ZooKeeperTestSupport.provider;
import static io.kestrel.rpc.registry.zookeeper.ZooKeeperTestSupport.uniqueService;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.registry.zookeeper.ZooKeeperTestSupport.RecordingListener;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a service's watch keeps of what a registry writer put in ZooKeeper: node names, not node data; and
 * the malformed names it warned about only while their nodes exist.
 */
@Timeout(60)
class ServiceWatchCacheTest {
    @Test
    void nodeDataIsNotCachedAndMalformedNamesAreForgottenWhenTheirNodesGo() throws Exception {
        ScheduledExecutorService notifier = Executors.newSingleThreadScheduledExecutor();
        try (TestingServer server = ZooKeeperTestSupport.startServer();
                CuratorFramework raw = CuratorFrameworkFactory.newClient(server.getConnectString(),
                        new RetryOneTime(100))) {
            raw.start();
            assertTrue(raw.blockUntilConnected(10, TimeUnit.SECONDS));
            ServiceKey service = uniqueService("", "");
            String folder = ZooKeeperPaths.providersPath("/kestrel", service);
            ProviderInfo p1 = provider(service, 20001);
            // a valid record carrying 500 KB of data a consumer has no use for
            raw.create().creatingParentsIfNeeded().forPath(folder + "/" + URLEncoder.encode(p1.toUrl(),
                    StandardCharsets.UTF_8), new byte[500_000]);
            for (int i = 0; i < 3; i++) {
                raw.create().forPath(folder + "/garbage-" + i, new byte[1000]);
            }
            ServiceWatch watch = new ServiceWatch(service, false, folder, raw, "test", notifier, () -> true);
            try {
                RecordingListener listener = new RecordingListener();
                watch.subscribers.add(new ServiceWatch.Subscriber(listener));
                listener.await("the valid provider", l -> l.equals(List.of(p1)));
                assertEquals(0, watch.cachedDataBytes(), "node data was cached");
                assertEquals(3, (int) notifier.submit(watch::malformedRemembered).get());

                raw.delete().forPath(folder + "/garbage-0");
                raw.delete().forPath(folder + "/garbage-1");
                ProviderInfo p2 = provider(service, 20002);
                raw.create().forPath(folder + "/" + URLEncoder.encode(p2.toUrl(), StandardCharsets.UTF_8));
                listener.await("both providers", l -> l.size() == 2);
                assertEquals(1, (int) notifier.submit(watch::malformedRemembered).get(),
                        "names of deleted nodes are still remembered");
            } finally {
                watch.close();
            }
        } finally {
            notifier.shutdownNow();
        }
    }
}
