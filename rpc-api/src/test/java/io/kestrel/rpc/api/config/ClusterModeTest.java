package io.kestrel.rpc.api.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ClusterModeTest {

    @Test
    void configurationNamesParseCaseInsensitively() {
        assertEquals(ClusterMode.FAILOVER, ClusterMode.byName("failover"));
        assertEquals(ClusterMode.FAILFAST, ClusterMode.byName(" FailFast "));
        assertEquals(ClusterMode.FAILSAFE, ClusterMode.byName("FAILSAFE"));
        assertEquals("failsafe", ClusterMode.FAILSAFE.configName());
    }

    @Test
    void unknownNamesListTheValidValues() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ClusterMode.byName("failback"));
        assertEquals("unknown cluster mode 'failback'; use one of failover, failfast, failsafe", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ClusterMode.byName(null));
    }

    @Test
    void referencesDefaultToFailover() {
        assertEquals(ClusterMode.FAILOVER, ReferenceConfig.builder(Runnable.class).build().cluster());
    }
}
