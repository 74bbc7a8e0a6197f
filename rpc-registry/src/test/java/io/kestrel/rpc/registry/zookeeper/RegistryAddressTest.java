package io.kestrel.rpc.registry.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.RegistryException;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.registry.Registries;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class RegistryAddressTest {

    @Test
    void unreachableZooKeeperFailsAfterTheConnectionTimeoutNamingTheAddress() throws Exception {
        int port = ZooKeeperTestSupport.unusedPort();
        RegistryConfig config = RegistryConfig.builder()
                .address("zookeeper://127.0.0.1:" + port)
                .connectionTimeout(Duration.ofSeconds(1))
                .sessionTimeout(Duration.ofSeconds(2))
                .build();
        long start = System.nanoTime();
        RegistryException e = assertThrows(RegistryException.class, () -> Registries.create(config));
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;
        assertTrue(e.getMessage().contains("Could not connect to ZooKeeper at zookeeper://127.0.0.1:" + port),
                e.getMessage());
        assertTrue(e.getMessage().contains("within 1000 ms"), e.getMessage());
        assertTrue(e.getMessage().contains("check that ZooKeeper is running"), e.getMessage());
        assertTrue(elapsedMs >= 900 && elapsedMs < 10_000, "took " + elapsedMs + " ms");
    }

    @Test
    void malformedAddressesAreRejectedWithTheExpectedForm() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ZooKeeperRegistryFactory.connectString("zookeeper://zk1:21x1"));
        assertTrue(e.getMessage().contains("'zookeeper://zk1:21x1'"), e.getMessage());
        assertTrue(e.getMessage().contains("zookeeper://host:port[,host:port...]"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ZooKeeperRegistryFactory.connectString("zookeeper://"));
        assertThrows(IllegalArgumentException.class, () -> ZooKeeperRegistryFactory.connectString("zookeeper://a:1,,b:2"));
        assertThrows(IllegalArgumentException.class, () -> EmbeddedRegistryFactory.port("embedded://99999"));
    }

    @Test
    void connectStringsAndPortsAreParsed() {
        assertEquals("zk1:2181,zk2:2182,10.0.0.3:2181",
                ZooKeeperRegistryFactory.connectString("zookeeper://zk1,zk2:2182, 10.0.0.3:2181/"));
        assertEquals(EmbeddedRegistryFactory.defaultPort(), EmbeddedRegistryFactory.port("embedded"));
        assertEquals(2181, EmbeddedRegistryFactory.port("embedded://2181"));
    }

    /** rpc-registry's tests run without rpc-registry-embedded, as an application that left it out does. */
    @Test
    void anEmbeddedAddressWithoutTheEmbeddedArtifactFailsNamingIt() {
        for (String address : new String[] {"embedded", "embedded://2999"}) {
            RegistryException e = assertThrows(RegistryException.class,
                    () -> Registries.create(RegistryConfig.builder().address(address).build()));
            assertTrue(e.getMessage().startsWith("The registry address '" + address + "' means the embedded "
                    + "ZooKeeper"), e.getMessage());
            assertTrue(e.getMessage().contains("Add the dependency io.kestrel:rpc-registry-embedded"), e.getMessage());
            assertTrue(e.getMessage().contains("zookeeper://host:port"), e.getMessage());
        }
    }

    @Test
    void factoriesAreFoundByScheme() {
        assertTrue(Registries.knownSchemes().containsAll(java.util.List.of("zookeeper", "embedded")),
                Registries.knownSchemes().toString());
    }
}
