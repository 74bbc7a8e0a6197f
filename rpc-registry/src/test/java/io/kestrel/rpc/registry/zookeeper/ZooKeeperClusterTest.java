package io.kestrel.rpc.registry.zookeeper;

import static io.kestrel.rpc.registry.zookeeper.ZooKeeperTestSupport.awaitTrue;
import static io.kestrel.rpc.registry.zookeeper.ZooKeeperTestSupport.provider;
import static io.kestrel.rpc.registry.zookeeper.ZooKeeperTestSupport.uniqueService;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.registry.zookeeper.ZooKeeperTestSupport.RecordingListener;
import java.time.Duration;
import java.util.List;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(90)
class ZooKeeperClusterTest {

    private static ZooKeeperRegistry registry(String connectString) {
        RegistryConfig config = RegistryConfig.builder()
                .address("zookeeper://" + connectString)
                .sessionTimeout(Duration.ofSeconds(5))
                .connectionTimeout(Duration.ofSeconds(15))
                .build();
        return (ZooKeeperRegistry) new ZooKeeperRegistryFactory().create(config);
    }

    @Test
    void registrationAndDiscoveryKeepWorkingWithOneOfThreeNodesDown() throws Exception {
        ServiceKey service = uniqueService("1.0", "");
        ProviderInfo p1 = provider(service, 20001);
        ProviderInfo p2 = provider(service, 20002);
        int tickMs = 500;
        try (TestingCluster cluster = new TestingCluster(ZooKeeperTestSupport.loopbackSpec(1, tickMs),
                ZooKeeperTestSupport.loopbackSpec(2, tickMs), ZooKeeperTestSupport.loopbackSpec(3, tickMs))) {
            cluster.start();
            String connectString = cluster.getConnectString();
            assertEquals(3, connectString.split(",").length, connectString);
            try (ZooKeeperRegistry provider = registry(connectString);
                    ZooKeeperRegistry consumer = registry(connectString)) {
                provider.register(p1);
                RecordingListener listener = new RecordingListener();
                consumer.subscribe(service, listener);
                listener.await("p1", l -> l.equals(List.of(p1)));

                InstanceSpec victim = cluster.findConnectionInstance(
                        provider.curator().getZookeeperClient().getZooKeeper());
                assertTrue(cluster.killServer(victim), "killed " + victim);

                awaitTrue("provider connected to a surviving node", provider::isConnected);
                provider.register(p2);
                listener.await("p1 and p2 with one node down", l -> l.equals(List.of(p1, p2)));

                try (ZooKeeperRegistry late = registry(connectString)) {
                    RecordingListener lateListener = new RecordingListener();
                    late.subscribe(service, lateListener);
                    lateListener.await("p1 and p2 for a new client", l -> l.equals(List.of(p1, p2)));
                }
            }
        }
    }
}
