package io.kestrel.rpc.perf.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kestrel.rpc.api.config.ServerLimits;
import io.kestrel.rpc.perf.compare.system.SystemSettings;
import io.kestrel.rpc.perf.soak.attack.AttackPlan;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LimitsSpecTest {

    @Test
    void theAttackPlansLimitsReachTheProviderJvmIntact() {
        ServerLaunch launch = new ServerLaunch("soak-kryo", SystemSettings.DEFAULTS, 60, AttackPlan.limitsSpec());
        ServerLaunch read = ServerLaunch.parse(launch.toArgs().toArray(String[]::new));
        assertEquals(launch, read);
        ServerLimits limits = LimitsSpec.parse(read.limits());
        assertEquals(AttackPlan.BUDGET, limits.memoryBudgetBytes());
        assertEquals(AttackPlan.MAX_CONNECTIONS_PER_HOST, limits.maxConnectionsPerHost());
        assertEquals(AttackPlan.MAX_CONNECTIONS, limits.maxConnections());
        assertEquals(Duration.ofSeconds(2), limits.frameTimeout());
        assertEquals(Duration.ofSeconds(2), limits.writeStallTimeout());
        assertEquals(AttackPlan.WRITE_BUFFER, limits.writeBufferBytes());
        assertEquals(ServerLimits.defaults().callsPerConnection(), limits.callsPerConnection());
    }

    @Test
    void noSpecMeansTheDefaultsAndNoArgument() {
        ServerLaunch launch = new ServerLaunch("soak-kryo", SystemSettings.DEFAULTS, 60);
        assertEquals(-1, launch.toArgs().indexOf("--limits"));
        assertEquals(ServerLimits.defaults(), LimitsSpec.parse(launch.limits()));
    }

    @Test
    void aStreamIdleTimeoutReachesTheProvider() {
        ServerLimits limits = LimitsSpec.parse(new LimitsSpec().set("stream-idle-timeout-ms", 1500).toString());
        assertEquals(Duration.ofMillis(1500), limits.streamIdleTimeout());
        assertEquals(Duration.ZERO, LimitsSpec.parse("stream-idle-timeout-ms=0").streamIdleTimeout(), "0: off");
        assertThrows(IllegalArgumentException.class, () -> LimitsSpec.parse("stream-idle-timeout-ms=-1"));
    }

    @Test
    void unknownOrRefusedSettingsAreNamed() {
        assertThrows(IllegalArgumentException.class, () -> LimitsSpec.parse("max-sockets=3"));
        assertThrows(IllegalArgumentException.class, () -> new LimitsSpec().set("memory-budget", 1000));
    }
}
