package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.ServiceNotFoundException;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.generic.GenericService;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.core.fixture.EchoServiceImpl;
import io.kestrel.rpc.core.fixture.orders.OrderService;
import io.kestrel.rpc.core.fixture.orders.OrderServiceImpl;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code generic="false"} on a service: its $invoke and $metadata answer "switched off", its methods work on. */
@org.junit.jupiter.api.Timeout(value = 120, unit = java.util.concurrent.TimeUnit.SECONDS)
class GenericSwitchTest {
    private static RpcRuntime provider;
    private static RpcRuntime consumer;
    private static String address;

    @BeforeAll
    static void start() {
        provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).loadInterceptors(false).build();
        provider.export(ServiceConfig.builder(OrderService.class, new OrderServiceImpl()).generic(false).build());
        provider.export(ServiceConfig.builder(EchoService.class, new EchoServiceImpl()).build());
        consumer = RpcRuntime.builder().loadInterceptors(false).build();
        address = "127.0.0.1:" + provider.boundPort();
    }

    @AfterAll
    static void stop() {
        consumer.close();
        provider.close();
    }

    @Test
    void aServiceWithGenericOffRefusesInvokeAndMetadata() {
        GenericService orders = consumer.refer(ReferenceConfig.generic(OrderService.class.getName()).url(address)
                .timeout(Duration.ofSeconds(5)).build());
        ServiceNotFoundException invoke = assertThrows(ServiceNotFoundException.class,
                () -> orders.$invoke("add", new String[] {"int", "int"}, new Object[] {1, 2}));
        assertTrue(invoke.getMessage().contains("service " + OrderService.class.getName() + " does not answer generic"
                + " calls ($invoke) or metadata requests ($metadata): its provider exported it with generic=\"false\""),
                invoke.getMessage());
        ServiceNotFoundException metadata = assertThrows(ServiceNotFoundException.class,
                () -> consumer.inspect().metadata(ServiceKey.of(OrderService.class), address));
        assertTrue(metadata.getMessage().contains("generic=\"false\""), metadata.getMessage());
    }

    @Test
    void itsOwnMethodsAndOtherServicesGenericCallsWorkOn() {
        OrderService typed = consumer.refer(ReferenceConfig.builder(OrderService.class).url(address)
                .timeout(Duration.ofSeconds(5)).build());
        assertEquals(3, typed.add(1, 2));
        GenericService echo = consumer.refer(ReferenceConfig.generic(EchoService.class.getName()).url(address)
                .timeout(Duration.ofSeconds(5)).build());
        assertEquals("hi", echo.$invoke("echo", new String[] {"java.lang.String"}, new Object[] {"hi"}));
        assertEquals(EchoService.class.getName(), consumer.inspect().metadata(ServiceKey.of(EchoService.class), address)
                .interfaceName());
    }
}
