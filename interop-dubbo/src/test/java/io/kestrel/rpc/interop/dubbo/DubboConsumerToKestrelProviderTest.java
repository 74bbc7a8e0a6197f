package io.kestrel.rpc.interop.dubbo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.RpcContext;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.interop.dubbo.api.Greeter;
import io.kestrel.rpc.interop.dubbo.api.GreetingService;
import io.kestrel.rpc.interop.dubbo.api.InventoryException;
import io.kestrel.rpc.interop.dubbo.api.Order;
import io.kestrel.rpc.interop.dubbo.api.OrderRejectedException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.dubbo.rpc.RpcException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Stock Apache Dubbo 3.3 consumers (direct url, no registry) call a Kestrel provider on the dubbo protocol. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DubboConsumerToKestrelProviderTest {
    private static RpcRuntime provider;
    private static Greeter greeter;
    private static DubboSide dubbo;
    private static GreetingService service;

    @BeforeAll
    static void start() {
        // a Dubbo client connects to this machine's address when told 127.0.0.1 (its NetUtils.filterLocalHost)
        provider = RpcRuntime.builder().protocol(ProtocolConfig.builder().name("dubbo").host(DubboSide.HOST).port(0)
                .build()).build();
        greeter = new Greeter("kestrel", k -> RpcContext.current().getAttachment(k),
                (k, v) -> RpcContext.current().setResponseAttachment(k, v));
        provider.export(ServiceConfig.builder(GreetingService.class, (GreetingService) greeter).build());
        dubbo = DubboSide.start("dubbo-consumer");
        service = dubbo.refer(GreetingService.class, "dubbo://" + DubboSide.HOST + ":" + provider.boundPort(), 3000);
    }

    @AfterAll
    static void stop() {
        if (dubbo != null) {
            dubbo.close();
        }
        if (provider != null) {
            provider.close();
        }
    }

    @Test
    void dubboConsumerCallsKestrelProviderSynchronously() {
        assertEquals("hello Ada from kestrel", service.hello("Ada"));
        assertEquals(42, service.add(40, 2L));
    }

    @Test
    void nestedDtosTravelBothWays() {
        Order order = new Order(7, new Order.Customer("Ada", "ada@example.org"),
                List.of(new Order.Line("pen", 2, new BigDecimal("1.50")), new Order.Line("ink", 1, new BigDecimal("4"))));
        Order placed = service.place(order);
        assertEquals("accepted by kestrel, total 7.00", placed.getStatus());
        assertEquals(order.getCustomer(), placed.getCustomer());
        assertEquals(order.getLines(), placed.getLines());
    }

    @Test
    void completableFutureMethodsAnswerAsynchronously() throws Exception {
        CompletableFuture<String> f = service.helloAsync("Alan");
        assertEquals("async hello Alan from kestrel", f.get(10, TimeUnit.SECONDS));
    }

    @Test
    void declaredAndUncheckedExceptionsArriveAsThemselves() {
        OrderRejectedException declared = assertThrows(OrderRejectedException.class, () -> service.reject("no stock"));
        assertEquals("no stock", declared.reason());
        InventoryException unchecked = assertThrows(InventoryException.class, () -> service.explode("shelf empty"));
        assertEquals("shelf empty", unchecked.getMessage());
    }

    @Test
    void attachmentsTravelBothWays() {
        org.apache.dubbo.rpc.RpcContext.getClientAttachment().setAttachment("tenant", "acme");
        assertEquals("acme", service.attachment("tenant"));
        assertEquals("seen acme", org.apache.dubbo.rpc.RpcContext.getServerContext().getAttachment("echo-tenant"));
    }

    @Test
    void aSlowCallTimesOutAtTheDubboConsumer() {
        RpcException e = assertThrows(RpcException.class, () -> service.slow(5000));
        assertTrue(e.isTimeout(), e.toString());
        assertEquals("hello again from kestrel", service.hello("again"));
    }

    @Test
    void aThousandConcurrentCallsShareOneConnection() throws Exception {
        int before = provider.serverConnections();
        List<CompletableFuture<String>> futures = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            futures.add(service.helloAsync("n" + i));
        }
        for (int i = 0; i < 1000; i++) {
            assertEquals("async hello n" + i + " from kestrel", futures.get(i).get(30, TimeUnit.SECONDS));
        }
        assertEquals(1, provider.serverConnections());
        assertEquals(before, provider.serverConnections());
    }
}
