package io.kestrel.rpc.interop.dubbo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.RpcContext;
import io.kestrel.rpc.api.RpcException;
import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.api.config.ClientConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.interop.dubbo.api.Greeter;
import io.kestrel.rpc.interop.dubbo.api.GreetingService;
import io.kestrel.rpc.interop.dubbo.api.Order;
import io.kestrel.rpc.interop.dubbo.api.OrderRejectedException;
import io.kestrel.rpc.testing.Await;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A Kestrel reference with protocol dubbo (direct url) calls a stock Apache Dubbo 3.3 provider. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class KestrelConsumerToDubboProviderTest {
    private static DubboSide dubbo;
    private static Greeter greeter;
    private static RpcRuntime consumer;
    private static GreetingService service;
    private static GreetingService patient;
    private static String url;

    @BeforeAll
    static void start() {
        dubbo = DubboSide.start("stock-provider");
        greeter = new Greeter("dubbo",
                k -> org.apache.dubbo.rpc.RpcContext.getServerAttachment().getAttachment(k),
                (k, v) -> org.apache.dubbo.rpc.RpcContext.getServerResponseContext().setAttachment(k, v));
        int port = dubbo.export(GreetingService.class, greeter, DubboSide.freePort());
        url = "dubbo://" + DubboSide.HOST + ":" + port;
        // heartbeats every second (3 s of silence closes), so the heartbeat test sees several in a short idle time
        consumer = RpcRuntime.builder().client(ClientConfig.builder().heartbeatInterval(Duration.ofSeconds(1))
                .build()).build();
        service = consumer.refer(ReferenceConfig.builder(GreetingService.class).url(url)
                .timeout(Duration.ofSeconds(3)).build());
        patient = consumer.refer(ReferenceConfig.builder(GreetingService.class).url(url).version("")
                .timeout(Duration.ofSeconds(30)).retries(0).build());
    }

    @AfterAll
    static void stop() {
        if (consumer != null) {
            consumer.close();
        }
        if (dubbo != null) {
            dubbo.close();
        }
    }

    @Test
    void kestrelReferenceCallsStockDubboProviderSynchronously() {
        assertEquals("hello Ada from dubbo", service.hello("Ada"));
        assertEquals(42, service.add(40, 2L));
    }

    @Test
    void nestedDtosTravelBothWays() {
        Order order = new Order(8, new Order.Customer("Alan", "alan@example.org"),
                List.of(new Order.Line("tape", 3, new BigDecimal("2.25"))));
        Order placed = service.place(order);
        assertEquals("accepted by dubbo, total 6.75", placed.getStatus());
        assertEquals(order.getLines(), placed.getLines());
    }

    @Test
    void completableFutureMethodsAnswerAsynchronously() throws Exception {
        assertEquals("async hello Grace from dubbo", service.helloAsync("Grace").get(10, TimeUnit.SECONDS));
    }

    @Test
    void aDeclaredExceptionArrivesAsItself() {
        OrderRejectedException e = assertThrows(OrderRejectedException.class, () -> service.reject("closed"));
        assertEquals("closed", e.reason());
    }

    /**
     * An undeclared exception of the API jar: the stock Dubbo provider's ExceptionFilter sends it as it is, but
     * Dubbo 3.3's own serialization check then refuses to write it, so the provider answers with an error status
     * whose text names it.
     */
    @Test
    void anUndeclaredExceptionIsAnErrorNamingIt() {
        RpcException e = assertThrows(RpcException.class, () -> service.explode("shelf empty"));
        assertTrue(e.getMessage().contains("InventoryException"), e.getMessage());
    }

    @Test
    void attachmentsTravelBothWays() {
        RpcContext.current().setAttachment("tenant", "acme");
        assertEquals("acme", service.attachment("tenant"));
        assertEquals("seen acme", RpcContext.current().getResponseAttachment("echo-tenant"));
    }

    @Test
    void aSlowCallTimesOutAtTheKestrelConsumer() {
        GreetingService quick = consumer.refer(ReferenceConfig.builder(GreetingService.class).url(url).group("")
                .timeout(Duration.ofMillis(300)).retries(0).build());
        RpcTimeoutException e = assertThrows(RpcTimeoutException.class, () -> quick.slow(3000));
        assertTrue(e.getMessage().contains("300 ms"), e.getMessage());
        assertEquals("hello again from dubbo", service.hello("again"));
    }

    @Test
    void aThousandConcurrentCallsShareOneConnection() throws Exception {
        List<CompletableFuture<String>> futures = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            futures.add(patient.helloAsync("n" + i));
        }
        for (int i = 0; i < 1000; i++) {
            assertEquals("async hello n" + i + " from dubbo", futures.get(i).get(60, TimeUnit.SECONDS));
        }
        assertEquals(1, consumer.inspect().connections().size());
    }

    @Test
    void heartbeatsKeepAnIdleConnectionReady() throws Exception {
        service.hello("before");
        long written = consumer.inspect().snapshot().client().wire().bytesWritten();
        long read = consumer.inspect().snapshot().client().wire().framesRead();
        // no calls meanwhile: every frame read is the answer to a heartbeat (17 bytes each way)
        Await.until("three heartbeats answered", Duration.ofSeconds(20),
                () -> consumer.inspect().snapshot().client().wire().framesRead() >= read + 3);
        assertTrue(consumer.inspect().snapshot().client().wire().bytesWritten() >= written + 3 * 17);
        assertEquals("READY", consumer.inspect().connections().get(0).state());
        assertEquals("hello after from dubbo", service.hello("after"));
    }
}
