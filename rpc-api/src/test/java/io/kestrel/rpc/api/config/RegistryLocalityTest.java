package io.kestrel.rpc.api.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RegistryLocalityTest {
    private static boolean local(String address) {
        return RegistryConfig.builder().address(address).build().isLocal();
    }

    @Test
    void embeddedAndLoopbackEnsemblesAreLocal() {
        assertTrue(RegistryConfig.embedded().isLocal());
        assertTrue(local("embedded://2190"));
        assertTrue(local("zookeeper://127.0.0.1:2181"));
        assertTrue(local("zookeeper://localhost:2181,127.0.0.2:2182/chroot"));
        assertTrue(local("zookeeper://[::1]:2181"));
        assertTrue(local("zookeeper://LOCALHOST"));
    }

    @Test
    void anyServerOtherHostsCanReadMakesTheRegistryRemote() {
        assertFalse(local("zookeeper://10.0.0.5:2181"));
        assertFalse(local("zookeeper://127.0.0.1:2181,zk2.example:2181"));
        assertFalse(local("zookeeper://zk.internal:2181/kestrel"));
        assertFalse(local("zookeeper://[fd00::5]:2181"));
        assertFalse(local("zookeeper://localhost.example.com:2181"), "a name that only starts like localhost");
    }

    @Test
    void unregisterTimeoutDefaultsToThreeSecondsAndMustBePositive() {
        assertEquals(Duration.ofSeconds(3), RegistryConfig.embedded().unregisterTimeout());
        assertEquals(Duration.ofMillis(500),
                RegistryConfig.builder().unregisterTimeout(Duration.ofMillis(500)).build().unregisterTimeout());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RegistryConfig.builder().unregisterTimeout(Duration.ZERO));
        assertTrue(e.getMessage().contains("unregisterTimeout"), e.getMessage());
    }
}
