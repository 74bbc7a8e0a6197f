package io.kestrel.rpc.core.tls;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.config.TlsConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.TestRuntimes;
import io.kestrel.rpc.core.fixture.CallerService;
import io.kestrel.rpc.core.fixture.CallerServiceImpl;
import io.kestrel.rpc.testing.TestPki;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PEM files are checked when the provider starts (and when a reference is created): each problem
 * fails startup with the file, the setting and what is wrong.
 */
class TlsFilesTest {
    @TempDir
    Path dir;
    private final TestPki ca = TestPki.ca("Files CA");

    /** The message a provider with this TLS fails to start with. */
    private String providerFailure(TlsConfig tls) {
        RpcRuntime provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().tls(tls).build()).build();
        try {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> provider.export(
                    ServiceConfig.builder(CallerService.class, new CallerServiceImpl()).build()));
            return e.getMessage();
        } finally {
            provider.close();
        }
    }

    private static void assertContains(String text, String... parts) {
        for (String p : parts) {
            assertTrue(text.contains(p), "expected '" + p + "' in: " + text);
        }
    }

    @Test
    void aMissingCertificateFileIsNamed() {
        TestPki.Files2 ok = ca.server("p").write(dir, "p");
        Path missing = dir.resolve("nope.crt");
        assertContains(providerFailure(TlsConfig.builder().keyPair(missing, ok.key()).build()),
                "TLS file " + missing + " (protocol tls-cert) does not exist");
    }

    @Test
    void aFileThatIsNotPemIsNamed() throws Exception {
        TestPki.Files2 ok = ca.server("p").write(dir, "p");
        Path garbage = Files.writeString(dir.resolve("garbage.crt"), "this is not a certificate\n");
        assertContains(providerFailure(TlsConfig.builder().keyPair(garbage, ok.key()).build()),
                "TLS file " + garbage + " (protocol tls-cert) is not a PEM certificate file");
        // the key where the certificate belongs, and the reverse, are recognised as such
        assertContains(providerFailure(TlsConfig.builder().keyPair(ok.key(), ok.cert()).build()),
                "(protocol tls-cert) is not a PEM certificate file", "is it the key file?");
    }

    @Test
    void aKeyThatDoesNotMatchTheCertificateIsRefused() {
        TestPki.Files2 one = ca.server("one").write(dir, "one");
        TestPki.Files2 two = ca.server("two").write(dir, "two");
        assertContains(providerFailure(TlsConfig.builder().keyPair(one.cert(), two.key()).build()),
                "TLS private key " + two.key() + " (tls-key) does not match the certificate in " + one.cert());
    }

    @Test
    void expiredAndNotYetValidCertificatesAreRefused() {
        TestPki.Files2 expired = ca.issue("old", Instant.now().minus(Duration.ofDays(10)),
                Instant.now().minus(Duration.ofDays(1)), "IP:127.0.0.1").write(dir, "expired");
        assertContains(providerFailure(TlsConfig.builder().keyPair(expired.cert(), expired.key()).build()),
                "TLS file " + expired.cert() + " (protocol tls-cert) holds a certificate", "that expired on");
        TestPki.Files2 future = ca.issue("future", Instant.now().plus(Duration.ofDays(1)),
                Instant.now().plus(Duration.ofDays(10)), "IP:127.0.0.1").write(dir, "future");
        assertContains(providerFailure(TlsConfig.builder().keyPair(future.cert(), future.key()).build()),
                "that is not valid before");
    }

    @Test
    void clientAuthWithoutTrustRootsAndAProviderWithoutCertificateAreRefused() {
        TestPki.Files2 ok = ca.server("p").write(dir, "p");
        assertContains(providerFailure(TlsConfig.builder().keyPair(ok.cert(), ok.key())
                .clientAuth(TlsConfig.ClientAuth.REQUIRE).build()), "tls-client-auth=require needs tls-trust");
        assertContains(providerFailure(TlsConfig.builder().trustRoots(ca.writeTrust(dir)).build()),
                "set tls-cert and tls-key");
    }

    @Test
    void aReferenceChecksItsFilesWhenCreated() {
        Path missing = dir.resolve("missing-ca.crt");
        try (RpcRuntime consumer = RpcRuntime.builder().build()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> consumer.refer(
                    ReferenceConfig.builder(CallerService.class).url("127.0.0.1:1").check(false)
                            .tls(TlsConfig.builder().trustRoots(missing).build()).build()));
            assertContains(e.getMessage(), "TLS file " + missing + " (reference tls-trust) does not exist");
        }
    }

    @Test
    void builderRefusesHalfAKeyPairAndOldProtocols() {
        assertContains(assertThrows(IllegalArgumentException.class, () -> TlsConfig.builder()
                .certificateChain(dir.resolve("a.crt")).build()).getMessage(), "tls-cert is set but tls-key is not");
        assertContains(assertThrows(IllegalArgumentException.class, () -> TlsConfig.builder()
                .protocols(java.util.List.of("TLSv1.1")).build()).getMessage(), "'TLSv1.1' is not supported");
    }
}
