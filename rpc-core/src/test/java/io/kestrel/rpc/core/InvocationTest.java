package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.BadRequestException;
import io.kestrel.rpc.api.NoProviderException;
import io.kestrel.rpc.api.PayloadTooLargeException;
import io.kestrel.rpc.api.RpcContext;
import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.core.fixture.Payload;
import io.kestrel.rpc.core.fixture.SecretException;
import io.kestrel.rpc.core.fixture.refused.Counted;
import io.kestrel.rpc.core.fixture.refused.Gadget;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** Calls through real proxies over a real loopback socket, with each serialization. */
class InvocationTest {
    static final java.util.List<String> SERIALIZATIONS = TestRuntimes.SERIALIZATIONS;

    static RpcRuntime provider;
    /** Compatible mode is a provider-wide setting: the "-compatible" entries of the matrix call this one. */
    static RpcRuntime compatibleProvider;
    static RpcRuntime consumer;

    @BeforeAll
    static void start() {
        provider = TestRuntimes.echoProvider(TestRuntimes.loopback().payloadBytes(64 * 1024).build());
        compatibleProvider = TestRuntimes.echoProvider(TestRuntimes.loopback().payloadBytes(64 * 1024).compatible(true)
                .build());
        consumer = RpcRuntime.builder().build();
    }

    @AfterAll
    static void stop() {
        consumer.close();
        compatibleProvider.close();
        provider.close();
    }

    private static EchoService echo(String entry) {
        RpcRuntime target = TestRuntimes.compatible(entry) ? compatibleProvider : provider;
        return consumer.refer(TestRuntimes.echoReference(target, entry).build());
    }

    @ParameterizedTest
    @FieldSource("SERIALIZATIONS")
    void plainAsyncAndNullResultsRoundTrip(String serialization) throws Exception {
        EchoService s = echo(serialization);
        assertEquals("hello", s.echo("hello"));
        assertEquals(Payload.sample(7), s.echoPayload(Payload.sample(7)));
        assertEquals("async:x", s.echoAsync("x").get(5, TimeUnit.SECONDS));
        assertNull(s.nothing());
        assertNull(s.echo(null));
        assertEquals(10L, s.add(3, 4, "3"));
        assertArrayEquals(new byte[100], s.blob(100));
        assertEquals("local default method for z", s.greet("z"));
    }

    @ParameterizedTest
    @FieldSource("SERIALIZATIONS")
    void providerExceptionArrivesAsTheSameType(String serialization) {
        EchoService s = echo(serialization);
        ArithmeticException e = assertThrows(ArithmeticException.class, () -> s.divide(1, 0));
        assertTrue(e.getMessage().contains("by zero"), e.getMessage());
    }

    @ParameterizedTest
    @FieldSource("SERIALIZATIONS")
    void undeclaredExceptionFromTheInterfacesCodeSourceArrivesAsItself(String serialization) {
        // Dubbo's rule: SecretException sits in the same class directory as EchoService (RemoteExceptionTest has
        // the other cases: fields, declared, JDK, foreign)
        EchoService s = echo(serialization);
        SecretException e = assertThrows(SecretException.class, () -> s.failWithSecret("boom"));
        assertEquals("boom", e.getMessage());
    }

    @ParameterizedTest
    @FieldSource("SERIALIZATIONS")
    void classNotOnTheProviderAllowlistIsRefusedBeforeInstantiation(String serialization) {
        // the consumer allows the class (its own runtime, so the shared one stays strict); the provider does not.
        // fory checks classes when writing too, so without this the consumer itself would refuse to send it
        String refused = Gadget.class.getPackageName();
        RpcRuntime target = TestRuntimes.compatible(serialization) ? compatibleProvider : provider;
        try (RpcRuntime allowing = RpcRuntime.builder().build()) {
            EchoService s = allowing.refer(TestRuntimes.echoReference(target, serialization).allowPackage(refused).build());
            Gadget gadget = new Gadget();
            // some writers build one default instance per class to compare field values (fastjson2 does):
            // that is the consumer's doing, so write once locally first, then count
            TestRuntimes.serializer(serialization, ClassAllowlist.withDefaults().allowPackage(refused))
                    .serialize(gadget, new ByteArrayOutputStream());
            int constructed = Counted.CONSTRUCTED.get();
            BadRequestException e = assertThrows(BadRequestException.class, () -> s.echoObject(gadget));
            assertTrue(e.getMessage().contains("Refused to deserialize class " + Gadget.class.getName()), e.getMessage());
            assertTrue(e.getMessage().contains("allowed-packages=\"" + refused + "\""), e.getMessage());
            assertEquals(constructed, Counted.CONSTRUCTED.get(), "the provider instantiated the refused class");
            assertEquals("still usable", s.echo("still usable"));
        }
    }

    @Test
    void aServiceAcceptsOnlyTheProtocolsSerializationUnlessItListsMore() {
        try (RpcRuntime foryProvider = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).build()) {
            foryProvider.export(io.kestrel.rpc.api.config.ServiceConfig.builder(EchoService.class,
                    new io.kestrel.rpc.core.fixture.EchoServiceImpl()).build());
            EchoService viaFory = consumer.refer(TestRuntimes.echoReference(foryProvider, "fory").build());
            assertEquals("f", viaFory.echo("f"));
            for (String other : List.of("kryo", "hessian2", "java", "fastjson2")) {
                // the consumer knows from the handshake: refused at refer (check=true), not at every call
                io.kestrel.rpc.api.NoProviderException e = assertThrows(io.kestrel.rpc.api.NoProviderException.class,
                        () -> consumer.refer(TestRuntimes.echoReference(foryProvider, other).build()), other);
                assertTrue(e.getMessage().contains("does not accept serialization " + other), e.getMessage());
            }
        }
        try (RpcRuntime listed = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).build()) {
            listed.export(io.kestrel.rpc.api.config.ServiceConfig.builder(EchoService.class,
                    new io.kestrel.rpc.core.fixture.EchoServiceImpl()).serialization("kryo").serialization("fory").build());
            assertEquals("k", consumer.refer(TestRuntimes.echoReference(listed, "kryo").build()).echo("k"));
            EchoService java = consumer.refer(TestRuntimes.echoReference(listed, "java").check(false).build());
            io.kestrel.rpc.api.NoProviderException e = assertThrows(io.kestrel.rpc.api.NoProviderException.class,
                    () -> java.echo("j"), "not listed");
            assertTrue(e.getMessage().contains("left out: provider " + "127.0.0.1:" + listed.boundPort()
                    + " does not accept serialization java"), e.getMessage());
        }
    }

    @Test
    void attachmentsTravelWithOneCallOnly() {
        EchoService s = echo("kryo");
        RpcContext.current().setAttachment("trace-id", "abc-123");
        assertEquals("abc-123", s.attachment("trace-id"));
        assertNull(s.attachment("trace-id"), "attachments belong to one call");
    }

    @Test
    void slowProviderGivesTimeoutNamingServiceMethodTimeoutAndAddress() {
        EchoService s = consumer.refer(TestRuntimes.echoReference(provider, "kryo").timeout(Duration.ofMillis(200)).build());
        // the provider answers after 1500 ms: an exception (rather than "slept 1500") proves the timer fired first
        RpcTimeoutException e = assertThrows(RpcTimeoutException.class, () -> s.sleep(1500));
        String m = e.getMessage();
        assertTrue(m.contains(EchoService.class.getName() + "#sleep"), m);
        assertTrue(m.contains("limit 200 ms"), m);
        assertTrue(m.contains("127.0.0.1:" + provider.boundPort()), m);
        assertEquals(0, consumer.inspect().connection("127.0.0.1:" + provider.boundPort()).orElseThrow().pendingCalls(),
                "pending-call table must be empty after a timeout");
    }

    @Test
    void tooLargeResponseFailsAtOnceNamingSizeAndLimit() {
        EchoService s = consumer.refer(TestRuntimes.echoReference(provider, "kryo").timeout(Duration.ofSeconds(10)).build());
        // a dropped response would end in RpcTimeoutException after 10 s: this exception type proves an answer came
        PayloadTooLargeException e = assertThrows(PayloadTooLargeException.class, () -> s.blob(200_000));
        assertTrue(e.getMessage().contains("65536"), e.getMessage());
        assertEquals(100, s.blob(100).length, "connection still usable");
    }

    @Test
    void tooLargeResponseForTheConsumerLimitFailsAtOnce() {
        // a fresh runtime: the first reference to an address sets its connection's limits
        RpcRuntime small = RpcRuntime.builder().build();
        try {
            EchoService t = small.refer(TestRuntimes.echoReference(provider, "kryo").payloadBytes(4096).build());
            PayloadTooLargeException e = assertThrows(PayloadTooLargeException.class, () -> t.blob(20_000));
            assertTrue(e.getMessage().contains("4096"), e.getMessage());
            assertTrue(e.getMessage().contains("consumer's payload limit"), e.getMessage());
            assertEquals(10, t.blob(10).length);
        } finally {
            small.close();
        }
    }

    @Test
    void tooLargeRequestIsRefusedBeforeSending() {
        RpcRuntime small = RpcRuntime.builder().build();
        try {
            EchoService t = small.refer(TestRuntimes.echoReference(provider, "kryo").payloadBytes(2048).build());
            PayloadTooLargeException e = assertThrows(PayloadTooLargeException.class, () -> t.echo("x".repeat(5000)));
            assertTrue(e.getMessage().contains("2048"), e.getMessage());
            assertTrue(e.getMessage().contains("not sent"), e.getMessage());
        } finally {
            small.close();
        }
    }

    @Test
    void referenceToAnAddressWithNoProviderFailsClearly() {
        NoProviderException e = assertThrows(NoProviderException.class, () -> consumer.refer(
                ReferenceConfig.builder(EchoService.class).url("127.0.0.1:1").connectTimeout(Duration.ofMillis(500)).build()));
        assertTrue(e.getMessage().contains("127.0.0.1:1"), e.getMessage());
        assertTrue(e.getMessage().contains("check=\"false\""), e.getMessage());
    }
}
