package io.kestrel.rpc.interop.dubbo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.NoProviderException;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.interop.dubbo.api.Greeter;
import io.kestrel.rpc.interop.dubbo.api.GreetingService;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A dubbo-protocol provider's registry record says so and is found by dubbo references only; its settings are checked. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DubboProtocolRecordsTest {
    @Test
    void dubboProvidersAreInDubbosLayoutOnlyWhereDubboReferencesFindThemAndNativeOnesDoNot() throws Exception {
        try (TestingServer zk = new TestingServer(true)) {
            RegistryConfig registry = RegistryConfig.builder().address("zookeeper://" + zk.getConnectString()).build();
            try (RpcRuntime provider = RpcRuntime.builder().registry(registry).protocol(ProtocolConfig.builder()
                    .name("dubbo").host(DubboSide.HOST).port(0).build()).build();
                    RpcRuntime consumer = RpcRuntime.builder().registry(registry).build()) {
                ProviderInfo record = provider.export(ServiceConfig.builder(GreetingService.class,
                        (GreetingService) new Greeter("kestrel", k -> null, (k, v) -> null)).build()).provider();
                assertEquals("dubbo", record.attribute(ProviderInfo.PROTOCOL).orElse(null));
                // the record is written under /dubbo, which native references never read
                assertThrows(NoProviderException.class, () -> consumer.refer(ReferenceConfig.builder(
                        GreetingService.class).connectTimeout(Duration.ofSeconds(2)).build()));
                GreetingService viaDubbo = consumer.refer(ReferenceConfig.builder(GreetingService.class)
                        .protocol("dubbo").timeout(Duration.ofSeconds(10)).build());
                assertEquals("hello ada from kestrel", viaDubbo.hello("ada"));
            }
        }
    }

    @Test
    void theDubboProtocolRefusesTlsAndAuthenticatorsNamingThem() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProtocolConfig.builder()
                .name("dubbo").authenticator("tokens").build());
        assertTrue(e.getMessage().contains("not available on the dubbo protocol")
                && e.getMessage().contains("authenticator"), e.getMessage());
    }
}
