package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.api.serialization.SerializerIds;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.core.fixture.EchoServiceImpl;
import io.kestrel.rpc.transport.Status;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Malformed and unexpected frames from a raw socket; a proper consumer on another connection keeps working. */
class HostileInputTest {
    static final String ECHO = EchoService.class.getName() + "#echo(java.lang.String)";
    static RpcRuntime provider;
    static RpcRuntime consumer;
    static EchoService goodClient;
    static Serializer kryo;

    @BeforeAll
    static void start() {
        provider = TestRuntimes.echoProvider(TestRuntimes.loopback().payloadBytes(64 * 1024).build());
        provider.export(ServiceConfig.builder(EchoService.class, new EchoServiceImpl()).version("hessian-only")
                .serialization("hessian2").build());
        consumer = RpcRuntime.builder().build();
        goodClient = consumer.refer(TestRuntimes.echoReference(provider, "kryo").build());
        kryo = Serializations.installed().byName("kryo")
                .create(SerializationOptions.builder().allowlist(ClassAllowlist.withDefaults()).build());
    }

    @AfterAll
    static void stop() {
        consumer.close();
        provider.close();
    }

    private static byte[] kryoBytes(Object value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        kryo.serialize(value, out);
        return out.toByteArray();
    }

    private static void goodClientStillServed() {
        assertEquals("alive", goodClient.echo("alive"));
    }

    @Test
    void garbageBytesCloseOnlyThatConnection() throws Exception {
        goodClientStillServed();
        try (RawClient raw = new RawClient(provider.boundPort())) {
            raw.writeRaw("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertTrue(raw.closedByPeer(), "server must close a connection that sends garbage");
        }
        goodClientStillServed();
    }

    @Test
    void wrongProtocolVersionClosesTheConnection() throws Exception {
        try (RawClient raw = new RawClient(provider.boundPort())) {
            raw.writeRaw(new byte[] {0x4B, 0x52, 9, 3, 8, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0});
            assertTrue(raw.closedByPeer());
        }
        goodClientStillServed();
    }

    @Test
    void oversizedBodyIsRefusedFromTheHeaderAlone() throws Exception {
        try (RawClient raw = new RawClient(provider.boundPort())) {
            raw.writeHeader(0x03, SerializerIds.KRYO, 77, 100 * 1024 * 1024); // claims 100 MiB, sends none of it
            RawClient.Response r = raw.read();
            assertEquals(77, r.requestId());
            assertEquals(Status.PAYLOAD_TOO_LARGE.code(), r.status());
            assertTrue(r.message().contains("104857600") && r.message().contains("65536"), r.message());
        }
        goodClientStillServed();
    }

    @Test
    void unknownSerializationIdGetsAnErrorAndTheConnectionStaysUsable() throws Exception {
        try (RawClient raw = new RawClient(provider.boundPort())) {
            raw.writeRequest(1, 99, 0, ECHO, kryoBytes("x"));
            RawClient.Response r = raw.read();
            assertEquals(Status.BAD_REQUEST.code(), r.status());
            assertTrue(r.message().contains("unknown serialization id 99"), r.message());

            raw.writeRequest(2, SerializerIds.KRYO, 0, null, kryoBytes("second"));
            RawClient.Response ok = raw.read();
            assertEquals(Status.OK.code(), ok.status(), () -> "status " + ok.status());
            assertEquals(2, ok.requestId());
        }
    }

    @Test
    void aProviderConfiguredToDiscloseListsItsExports() throws Exception {
        RpcRuntime open = TestRuntimes.echoProvider(TestRuntimes.loopback()
                .limits(io.kestrel.rpc.api.config.ServerLimits.builder().discloseServices(true).build()).build());
        try (RawClient raw = new RawClient(open.boundPort())) {
            raw.writeRequest(1, SerializerIds.KRYO, 0, "com.example.Missing#find(long)", kryoBytes(1L));
            assertTrue(raw.read().message().contains(EchoService.class.getName()), "the exported services are listed");
            raw.writeRequest(2, SerializerIds.KRYO, 1, EchoService.class.getName() + "#nope(int)", kryoBytes(1));
            assertTrue(raw.read().message().contains("echo(java.lang.String)"), "the service's methods are listed");
        } finally {
            open.close();
        }
    }

    @Test
    void unknownServiceAndMethodAreNamed() throws Exception {
        try (RawClient raw = new RawClient(provider.boundPort())) {
            raw.writeRequest(1, SerializerIds.KRYO, 0, "com.example.Missing#find(long)", kryoBytes(1L));
            RawClient.Response r = raw.read();
            assertEquals(Status.SERVICE_NOT_FOUND.code(), r.status());
            assertTrue(r.message().contains("com.example.Missing"), r.message());

            raw.writeRequest(2, SerializerIds.KRYO, 1, EchoService.class.getName() + "#nope(int)", kryoBytes(1));
            RawClient.Response m = raw.read();
            assertEquals(Status.SERVICE_NOT_FOUND.code(), m.status());
            assertTrue(m.message().contains("nope(int)"), m.message());
            // an unidentified caller learns what it asked for is missing, not what the provider exports
            assertTrue(!m.message().contains("echo(java.lang.String)") && !r.message().contains(EchoService.class.getName()),
                    r.message() + " / " + m.message());

            raw.writeRequest(3, SerializerIds.KRYO, 2, ECHO, kryoBytes("fine"));
            assertEquals(Status.OK.code(), raw.read().status());
        }
    }

    @Test
    void serializationTheServiceWasNotExportedWithIsNamed() throws Exception {
        try (RawClient raw = new RawClient(provider.boundPort())) {
            raw.writeRequest(1, SerializerIds.KRYO, 0, EchoService.class.getName() + ":hessian-only#echo(java.lang.String)",
                    kryoBytes("x"));
            RawClient.Response r = raw.read();
            assertEquals(Status.BAD_REQUEST.code(), r.status());
            assertTrue(r.message().contains("not exported with serialization kryo"), r.message());
        }
    }

    @Test
    void undefinedMethodReferenceIsABadRequest() throws Exception {
        try (RawClient raw = new RawClient(provider.boundPort())) {
            raw.writeRequest(5, SerializerIds.KRYO, 42, null, kryoBytes("x"));
            RawClient.Response r = raw.read();
            assertEquals(Status.BAD_REQUEST.code(), r.status());
            assertTrue(r.message().contains("unknown method reference 42"), r.message());
        }
        goodClientStillServed();
    }

    @Test
    void corruptArgumentBytesAreABadRequest() throws Exception {
        try (RawClient raw = new RawClient(provider.boundPort())) {
            raw.writeRequest(1, SerializerIds.KRYO, 0, ECHO, new byte[] {(byte) 0xFF, (byte) 0xFE, 0x7F, 1, 2, 3});
            RawClient.Response r = raw.read();
            assertEquals(Status.BAD_REQUEST.code(), r.status());
            assertTrue(r.message().contains("cannot decode the arguments"), r.message());
        }
        goodClientStillServed();
    }
}
