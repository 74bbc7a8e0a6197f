package io.kestrel.rpc.interop.dubbo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.NoProviderException;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.interop.dubbo.api.Greeter;
import io.kestrel.rpc.interop.dubbo.api.GreetingService;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.dubbo.rpc.RpcException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Groups and versions on the dubbo protocol (Dubbo sends the group in the attachments, after the arguments),
 * Kestrel on both ends of the dubbo protocol, and what a consumer on the wrong protocol is told.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DubboGroupsAndVersionsTest {
    private static RpcRuntime provider;
    private static RpcRuntime nativeProvider;
    private static RpcRuntime consumer;
    private static DubboSide dubbo;
    private static String url;

    @BeforeAll
    static void start() {
        provider = RpcRuntime.builder().protocol(ProtocolConfig.builder().name("dubbo").host(DubboSide.HOST).port(0)
                .build()).build();
        provider.export(ServiceConfig.builder(GreetingService.class, (GreetingService) new Greeter("group a", k -> null,
                (k, v) -> null)).group("a").version("1.0").build());
        provider.export(ServiceConfig.builder(GreetingService.class, (GreetingService) new Greeter("group b", k -> null,
                (k, v) -> null)).group("b").version("1.0").build());
        provider.export(ServiceConfig.builder(GreetingService.class, (GreetingService) new Greeter("version 2",
                k -> null, (k, v) -> null)).version("2.0").build());
        url = "dubbo://" + DubboSide.HOST + ":" + provider.boundPort();
        nativeProvider = RpcRuntime.builder().protocol(ProtocolConfig.builder().host(DubboSide.HOST).port(0).build())
                .build();
        nativeProvider.export(ServiceConfig.builder(GreetingService.class, (GreetingService) new Greeter("native",
                k -> null, (k, v) -> null)).build());
        consumer = RpcRuntime.builder().build();
        dubbo = DubboSide.start("groups");
    }

    @AfterAll
    static void stop() {
        if (dubbo != null) {
            dubbo.close();
        }
        for (RpcRuntime r : new RpcRuntime[] {consumer, provider, nativeProvider}) {
            if (r != null) {
                r.close();
            }
        }
    }

    @Test
    void stockDubboConsumersReachTheGroupAndVersionTheyName() {
        assertEquals("hello x from group a", dubbo.refer(GreetingService.class, url, 3000, "a", "1.0").hello("x"));
        assertEquals("hello x from group b", dubbo.refer(GreetingService.class, url, 3000, "b", "1.0").hello("x"));
        assertEquals("hello x from version 2", dubbo.refer(GreetingService.class, url, 3000, null, "2.0").hello("x"));
    }

    @Test
    void aGroupNobodyExportsIsServiceNotFound() {
        GreetingService missing = dubbo.refer(GreetingService.class, url, 3000, "c", "1.0");
        RpcException e = assertThrows(RpcException.class, () -> missing.hello("x"));
        assertTrue(e.getMessage().contains("c/" + GreetingService.class.getName() + ":1.0"), e.getMessage());
    }

    @Test
    void kestrelReferencesSpeakTheDubboProtocolToAKestrelProviderToo() {
        GreetingService b = consumer.refer(ReferenceConfig.builder(GreetingService.class).url(url).group("b")
                .version("1.0").timeout(Duration.ofSeconds(3)).build());
        assertEquals("hello y from group b", b.hello("y"));
    }

    @Test
    void aNativeReferenceToADubboPortIsToldWhatIsWrong() {
        NoProviderException e = assertThrows(NoProviderException.class, () -> consumer.refer(
                ReferenceConfig.builder(GreetingService.class).url(DubboSide.HOST + ":" + provider.boundPort())
                        .group("a").version("1.0").connectTimeout(Duration.ofSeconds(2)).build()));
        assertTrue(e.getMessage().contains(Integer.toString(provider.boundPort())), e.getMessage());
    }

    @Test
    void aDubboReferenceToANativePortIsToldWhatIsWrong() {
        NoProviderException e = assertThrows(NoProviderException.class, () -> consumer.refer(
                ReferenceConfig.builder(GreetingService.class).url("dubbo://" + DubboSide.HOST + ":"
                        + nativeProvider.boundPort()).connectTimeout(Duration.ofSeconds(2)).build()));
        assertTrue(e.getMessage().contains(Integer.toString(nativeProvider.boundPort())), e.getMessage());
    }
}
