package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ClientConfig;
import io.kestrel.rpc.api.config.ConnectionSettings;
import io.kestrel.rpc.core.fixture.EchoService;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Connection settings live in one place ({@link ConnectionSettings}): the runtime's {@link ClientConfig} holds them
 * all, a reference only those it sets. References of one runtime share the connection to a provider, so one whose
 * settings differ from the connection's is refused at refer time, naming the reference that opened it; one that
 * sets nothing, or the same values, shares it. Real provider on loopback.
 */
@Timeout(60)
class SharedConnectionSettingsTest {
    static RpcRuntime provider;

    @BeforeAll
    static void start() {
        provider = TestRuntimes.echoProvider(TestRuntimes.loopback().build());
    }

    @AfterAll
    static void stop() {
        provider.close();
    }

    @Test
    void aReferenceDisagreeingWithTheSharedConnectionIsRefusedNamingItsOpener() {
        try (RpcRuntime consumer = RpcRuntime.builder().build()) {
            EchoService first = consumer.refer(TestRuntimes.echoReference(provider, "kryo")
                    .connectTimeout(Duration.ofSeconds(2)).build());
            assertEquals("a", first.echo("a"));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> consumer.refer(
                    TestRuntimes.echoReference(provider, "kryo").connectTimeout(Duration.ofSeconds(5)).build()));
            assertTrue(e.getMessage().contains("connect-timeout=5000ms") && e.getMessage().contains("connect-timeout=2000ms")
                    && e.getMessage().contains("shared") && e.getMessage().contains(EchoService.class.getName()),
                    e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> consumer.refer(TestRuntimes.echoReference(provider, "kryo")
                    .build()), "the runtime's 3 s differ from the connection's 2 s");
            EchoService same = consumer.refer(TestRuntimes.echoReference(provider, "kryo")
                    .connection(ConnectionSettings.builder().connectTimeout(Duration.ofMillis(2000)).build()).build());
            assertEquals("b", same.echo("b"));
        }
    }

    @Test
    void referencesSettingNothingShareTheRuntimesSettings() {
        ClientConfig client = ClientConfig.builder().connectTimeout(Duration.ofSeconds(2)).maxPendingCalls(100).build();
        try (RpcRuntime consumer = RpcRuntime.builder().client(client).build()) {
            EchoService a = consumer.refer(TestRuntimes.echoReference(provider, "kryo").build());
            EchoService b = consumer.refer(TestRuntimes.echoReference(provider, "hessian2").maxPendingCalls(100).build());
            assertEquals("a", a.echo("a"));
            assertEquals("b", b.echo("b"));
            assertThrows(IllegalArgumentException.class, () -> consumer.refer(TestRuntimes.echoReference(provider, "kryo")
                    .maxPendingCalls(101).build()));
        }
    }
}
