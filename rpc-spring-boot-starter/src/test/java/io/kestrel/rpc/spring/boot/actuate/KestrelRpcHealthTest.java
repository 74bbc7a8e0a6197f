package io.kestrel.rpc.spring.boot.actuate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.spring.boot.Http;
import io.kestrel.rpc.spring.boot.fixture.Greeter;
import io.kestrel.rpc.spring.boot.fixture.GreeterService;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The health rules on a real runtime: the registry going away and coming back, the server closing. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class KestrelRpcHealthTest {

    @Test
    void downWhileTheRegistryIsAwayAndWhenTheServerStopsAccepting() throws Exception {
        try (TestingServer zookeeper = new TestingServer(true)) {
            RpcRuntime provider = RpcRuntime.builder()
                    .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).shutdownTimeout(Duration.ofSeconds(1)).build())
                    .registry(RegistryConfig.builder().address("zookeeper://" + zookeeper.getConnectString())
                            .sessionTimeout(Duration.ofSeconds(30)).build())
                    .build();
            try {
                provider.export(ServiceConfig.builder(Greeter.class, new GreeterService("h")).version("1.0").build());
                KestrelRpcHealth up = KestrelRpcHealth.of(provider);
                assertTrue(up.up(), up.details().toString());
                assertEquals(Map.of("address", "zookeeper://" + zookeeper.getConnectString(), "connected", true),
                        up.details().get("registry"));

                zookeeper.stop();
                Http.await("DOWN while ZooKeeper is away", Duration.ofSeconds(30), () -> !KestrelRpcHealth.of(provider).up());
                assertTrue(KestrelRpcHealth.server(provider).up(), "the server alone is fine: liveness stays UP");
                KestrelRpcHealth reported = KestrelRpcHealth.of(provider, KestrelRpcHealth.Counted.SERVER_ONLY);
                assertTrue(reported.up(), "the starter's default counts the server alone: " + reported.details());
                assertEquals(Map.of("address", "zookeeper://" + zookeeper.getConnectString(), "connected", false),
                        reported.details().get("registry"), "still reported");
                assertEquals(java.util.List.of("registry"), reported.details().get("notCounted"));

                zookeeper.restart();
                Http.await("UP once ZooKeeper is back", Duration.ofSeconds(30), () -> KestrelRpcHealth.of(provider).up());
            } finally {
                provider.close();
            }
            assertFalse(KestrelRpcHealth.server(provider).up(), "closed: not accepting");
            assertFalse(KestrelRpcHealth.of(provider).up());
        }
    }
}
