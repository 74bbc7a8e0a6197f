package io.kestrel.rpc.interop.dubbo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.RpcContext;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ServerLimits;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.interop.dubbo.api.Greeter;
import io.kestrel.rpc.interop.dubbo.api.GreetingService;
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
    private static DubboSide stockProvider;
    private static GreetingService stock;
    /** The same provider with a timeout for the load test (the machine is shared); Dubbo shares the connection. */
    private static GreetingService patient;

    @BeforeAll
    static void start() {
        // a Dubbo client connects to this machine's address when told 127.0.0.1 (its NetUtils.filterLocalHost)
        // 1,000 calls in flight on one connection: above the default share of a connection (threads / 2)
        provider = RpcRuntime.builder().protocol(ProtocolConfig.builder().name("dubbo").host(DubboSide.HOST).port(0)
                .limits(ServerLimits.builder().callsPerConnection(1000).build()).build()).build();
        greeter = new Greeter("kestrel", k -> RpcContext.current().getAttachment(k),
                (k, v) -> RpcContext.current().setResponseAttachment(k, v));
        provider.export(ServiceConfig.builder(GreetingService.class, (GreetingService) greeter).build());
        dubbo = DubboSide.start("dubbo-consumer");
        service = dubbo.refer(GreetingService.class, "dubbo://" + DubboSide.HOST + ":" + provider.boundPort(), 3000);
        patient = dubbo.refer(GreetingService.class, "dubbo://" + DubboSide.HOST + ":" + provider.boundPort(), 30_000);
        // the same service on a stock Dubbo provider, to compare what a Dubbo consumer sees from each
        stockProvider = DubboSide.start("dubbo-provider");
        int stockPort = stockProvider.export(GreetingService.class, new Greeter("dubbo", k -> null, (k, v) -> null),
                DubboSide.freePort());
        stock = dubbo.refer(GreetingService.class, "dubbo://" + DubboSide.HOST + ":" + stockPort, 3000);
    }

    @AfterAll
    static void stop() {
        if (dubbo != null) {
            dubbo.close();
        }
        if (stockProvider != null) {
            stockProvider.close();
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
    void aDeclaredExceptionArrivesAsItself() {
        OrderRejectedException declared = assertThrows(OrderRejectedException.class, () -> service.reject("no stock"));
        assertEquals("no stock", declared.reason());
        assertEquals("order rejected: no stock", declared.getMessage());
    }

    /**
     * An unchecked exception no method declares: Dubbo 3.3 refuses to serialize or read a class outside the
     * interface's signatures (its default STRICT check), so a stock Dubbo provider fails to send it at all and its
     * consumer gets "Failed to send response ... not in allow list". Our provider sends what Dubbo's ExceptionFilter
     * sends for exceptions of other jars: a RuntimeException whose message is the exception's type and message.
     */
    @Test
    void anUndeclaredUncheckedExceptionReachesADubboConsumerWithItsTypeAndMessage() {
        RuntimeException fromKestrel = assertThrows(RuntimeException.class, () -> service.explode("shelf empty"));
        assertEquals(RuntimeException.class, fromKestrel.getClass());
        assertEquals("io.kestrel.rpc.interop.dubbo.api.InventoryException: shelf empty", fromKestrel.getMessage());
        RpcException fromStock = assertThrows(RpcException.class, () -> stock.explode("shelf empty"));
        assertTrue(fromStock.getMessage().contains("not in allow list"), fromStock.getMessage());
    }

    /** The exception's type and its causes' types and messages, without addresses and ports. */
    private static String describe(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            sb.append(c.getClass().getName()).append(": ");
            if (!(c instanceof RpcException)) {
                sb.append(c.getMessage());
            }
            sb.append(" / ");
        }
        return sb.toString();
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
        int before = provider.inspect().snapshot().server().connections();
        List<CompletableFuture<String>> futures = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            futures.add(patient.helloAsync("n" + i));
        }
        for (int i = 0; i < 1000; i++) {
            assertEquals("async hello n" + i + " from kestrel", futures.get(i).get(30, TimeUnit.SECONDS));
        }
        assertEquals(1, provider.inspect().snapshot().server().connections());
        assertEquals(before, provider.inspect().snapshot().server().connections());
    }
}
