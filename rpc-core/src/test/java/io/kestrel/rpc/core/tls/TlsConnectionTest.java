package io.kestrel.rpc.core.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ConnectionUnavailableException;
import io.kestrel.rpc.api.NoProviderException;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.config.TlsConfig;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.core.Exporter;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.TestRuntimes;
import io.kestrel.rpc.core.fixture.CallerService;
import io.kestrel.rpc.core.fixture.CallerServiceImpl;
import io.kestrel.rpc.testing.TestPki;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS between real runtimes over loopback sockets, with certificates made for the test: calls over
 * TLS, mutual TLS and the caller's certificate identity on the provider, and each handshake failure
 * reported to the consumer at once, with what to fix, while the provider keeps serving others.
 */
@Timeout(60)
class TlsConnectionTest {
    @TempDir
    Path dir;
    private final List<RpcRuntime> runtimes = new ArrayList<>();
    private final TestPki ca = TestPki.ca("Test CA");

    @AfterEach
    void stopAll() {
        for (int i = runtimes.size() - 1; i >= 0; i--) {
            runtimes.get(i).close();
        }
    }

    private RpcRuntime provider(TlsConfig tls) {
        ProtocolConfig.Builder protocol = TestRuntimes.loopback();
        if (tls != null) {
            protocol.tls(tls);
        }
        RpcRuntime r = RpcRuntime.builder().protocol(protocol.build()).build();
        runtimes.add(r);
        r.export(ServiceConfig.builder(CallerService.class, new CallerServiceImpl()).build());
        return r;
    }

    /** A reference that does not insist on a connection at startup, so its calls show the failure. */
    private CallerService consumer(RpcRuntime provider, TlsConfig tls) {
        RpcRuntime r = RpcRuntime.builder().build();
        runtimes.add(r);
        return r.refer(ReferenceConfig.builder(CallerService.class).url("127.0.0.1:" + provider.boundPort()).tls(tls)
                .check(false).timeout(Duration.ofSeconds(30)).build());
    }

    private TlsConfig serverTls(TestPki.Issued server, TlsConfig.ClientAuth auth) {
        TestPki.Files2 files = server.write(dir, "server-" + System.nanoTime());
        return TlsConfig.builder().keyPair(files.cert(), files.key()).trustRoots(ca.writeTrust(dir)).clientAuth(auth)
                .build();
    }

    private TlsConfig clientTls(TestPki trusted, TestPki.Issued clientCert) {
        TlsConfig.Builder b = TlsConfig.builder().trustRoots(trusted.writeTrust(dir));
        if (clientCert != null) {
            TestPki.Files2 files = clientCert.write(dir, "client-" + System.nanoTime());
            b.keyPair(files.cert(), files.key());
        }
        return b.build();
    }

    /** The consumer's error for a call that could not be sent; asserts it came at once, not as a timeout. */
    private static String failureOf(CallerService consumer) {
        long start = System.nanoTime();
        ConnectionUnavailableException e = assertThrows(ConnectionUnavailableException.class, consumer::caller);
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(millis < 5000, "the failure took " + millis + " ms; the reference's timeout is 30 s");
        return e.getMessage();
    }

    @Test
    void callsTravelOverTlsAndTheProviderPublishesThatItRequiresTls() {
        RpcRuntime provider = RpcRuntime.builder().protocol(TestRuntimes.loopback()
                .tls(serverTls(ca.server("provider"), TlsConfig.ClientAuth.NONE)).build()).build();
        runtimes.add(provider);
        Exporter exported = provider.export(ServiceConfig.builder(CallerService.class, new CallerServiceImpl()).build());
        assertEquals("true", exported.provider().attributes().get(ProviderInfo.TLS));
        assertTrue(exported.provider().requiresTls());

        CallerService consumer = consumer(provider, clientTls(ca, null));
        assertEquals("anonymous", consumer.caller());
        assertEquals("anonymous", consumer.caller());
    }

    @Test
    void mutualTlsShowsTheVerifiedClientCertificateToProviderCode() {
        RpcRuntime provider = provider(serverTls(ca.server("provider"), TlsConfig.ClientAuth.REQUIRE));
        TestPki.Issued client = ca.client("billing", "URI:spiffe://example.org/billing", "DNS:billing.internal");
        CallerService consumer = consumer(provider, clientTls(ca, client));

        String subject = client.certificate().getSubjectX500Principal().getName();
        assertEquals(subject + " roles=[] by=tls sans=[URI:spiffe://example.org/billing, DNS:billing.internal]",
                consumer.caller());
    }

    @Test
    void aConsumerWithoutACertificateIsRefusedByARequiringProviderWhichKeepsServingOthers() {
        RpcRuntime provider = provider(serverTls(ca.server("provider"), TlsConfig.ClientAuth.REQUIRE));
        CallerService withoutCertificate = consumer(provider, clientTls(ca, null));
        String message = failureOf(withoutCertificate);
        assertTrue(message.contains("TLS handshake with provider 127.0.0.1:" + provider.boundPort() + " failed"), message);
        assertTrue(message.contains("the provider refused this consumer's certificate"), message);

        CallerService good = consumer(provider, clientTls(ca, ca.client("good")));
        assertTrue(good.caller().contains("CN=good"));
    }

    @Test
    void aClientCertificateFromAForeignCaIsRefused() {
        RpcRuntime provider = provider(serverTls(ca.server("provider"), TlsConfig.ClientAuth.REQUIRE));
        TestPki foreign = TestPki.ca("Foreign CA");
        CallerService stranger = consumer(provider, clientTls(ca, foreign.client("stranger")));
        String message = failureOf(stranger);
        assertTrue(message.contains("the provider refused this consumer's certificate"), message);

        CallerService good = consumer(provider, clientTls(ca, ca.client("good")));
        assertTrue(good.caller().contains("CN=good"));
    }

    @Test
    void aProviderCertificateFromAnotherCaIsRefusedByTheConsumerSayingSo() {
        RpcRuntime provider = provider(serverTls(ca.server("provider"), TlsConfig.ClientAuth.NONE));
        TestPki other = TestPki.ca("Other CA");
        String message = failureOf(consumer(provider, clientTls(other, null)));
        assertTrue(message.contains("not signed by a CA in this consumer's tls-trust"), message);
    }

    @Test
    void aProviderCertificateForAnotherHostIsRefusedByTheConsumerSayingSo() {
        TestPki.Issued elsewhere = ca.issue("elsewhere", java.time.Instant.now().minusSeconds(3600),
                java.time.Instant.now().plusSeconds(86400), "DNS:elsewhere.example.org");
        RpcRuntime provider = provider(serverTls(elsewhere, TlsConfig.ClientAuth.NONE));
        String message = failureOf(consumer(provider, clientTls(ca, null)));
        assertTrue(message.contains("does not name the host this consumer dials"), message);

        // the check can be turned off (for example behind an address-rewriting proxy)
        TlsConfig noHostCheck = TlsConfig.builder().trustRoots(ca.writeTrust(dir)).verifyHostname(false).build();
        assertEquals("anonymous", consumer(provider, noHostCheck).caller());
    }

    @Test
    void aPlaintextConsumerMeetingATlsProviderIsToldSoAtOnce() {
        RpcRuntime provider = provider(serverTls(ca.server("provider"), TlsConfig.ClientAuth.NONE));
        String message = failureOf(consumer(provider, null));
        assertTrue(message.contains("provider 127.0.0.1:" + provider.boundPort() + " requires TLS, but this consumer"
                + " connects in plaintext"), message);
        assertEquals("anonymous", consumer(provider, clientTls(ca, null)).caller()); // still serving
    }

    @Test
    void aTlsConsumerMeetingAPlaintextProviderIsToldSoAtOnce() {
        RpcRuntime provider = provider(null);
        String message = failureOf(consumer(provider, clientTls(ca, null)));
        assertTrue(message.contains("does not use TLS, but this consumer connects with TLS"), message);
        assertEquals("anonymous", consumer(provider, null).caller()); // still serving
    }

    @Test
    void aCheckedReferenceFailsAtStartupWithTheTlsReason() {
        RpcRuntime provider = provider(serverTls(ca.server("provider"), TlsConfig.ClientAuth.NONE));
        RpcRuntime r = RpcRuntime.builder().build();
        runtimes.add(r);
        NoProviderException e = assertThrows(NoProviderException.class, () -> r.refer(ReferenceConfig.builder(
                CallerService.class).url("127.0.0.1:" + provider.boundPort()).build()));
        assertTrue(e.getMessage().contains("requires TLS, but this consumer connects in plaintext"), e.getMessage());
    }

    @Test
    void aProviderSpeakingTheOtherKindIsLeftAsideWhileAMatchingOneServes() {
        // the TLS provider never becomes usable for this plaintext reference; the calls go to the other one
        RpcRuntime tlsProvider = provider(serverTls(ca.server("provider"), TlsConfig.ClientAuth.NONE));
        RpcRuntime plainProvider = provider(null);
        RpcRuntime r = RpcRuntime.builder().build();
        runtimes.add(r);
        CallerService both = r.refer(ReferenceConfig.builder(CallerService.class).url("127.0.0.1:"
                + tlsProvider.boundPort() + ",127.0.0.1:" + plainProvider.boundPort()).check(false)
                .loadBalance("roundrobin").build());
        for (int i = 0; i < 4; i++) {
            assertEquals("anonymous", both.caller());
        }
    }
}
