package io.kestrel.rpc.core.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ConnectionUnavailableException;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.config.TlsConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.TestRuntimes;
import io.kestrel.rpc.core.fixture.CallerService;
import io.kestrel.rpc.core.fixture.CallerServiceImpl;
import io.kestrel.rpc.testing.Await;
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
 * Certificate rotation without a restart: the provider's PEM files are replaced by a certificate
 * from another CA while it runs. New connections get the new certificate (a consumer trusting only
 * the new CA gets in, one trusting only the old CA no longer does), and the connection opened
 * before keeps working (it would fail if it had been re-established, as it trusts only the old CA).
 */
@Timeout(60)
class TlsRotationTest {
    @TempDir
    Path dir;
    private final List<RpcRuntime> runtimes = new ArrayList<>();

    @AfterEach
    void stopAll() {
        for (int i = runtimes.size() - 1; i >= 0; i--) {
            runtimes.get(i).close();
        }
    }

    private CallerService consumer(int port, Path trust) {
        RpcRuntime r = RpcRuntime.builder().build();
        runtimes.add(r);
        return r.refer(ReferenceConfig.builder(CallerService.class).url("127.0.0.1:" + port).check(false)
                .tls(TlsConfig.builder().trustRoots(trust).build()).timeout(Duration.ofSeconds(10)).build());
    }

    @Test
    void newConnectionsUseRenewedFilesAndOpenOnesKeepWorking() throws Exception {
        TestPki oldCa = TestPki.ca("Old CA");
        TestPki newCa = TestPki.ca("New CA");
        Path oldTrust = oldCa.writeTrust(dir);
        Path newTrust = newCa.writeTrust(dir);
        TestPki.Files2 files = oldCa.server("provider").write(dir, "provider");
        RpcRuntime provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().tls(TlsConfig.builder()
                .keyPair(files.cert(), files.key()).reloadInterval(Duration.ofMillis(100)).build()).build()).build();
        runtimes.add(provider);
        provider.export(ServiceConfig.builder(CallerService.class, new CallerServiceImpl()).build());
        int port = provider.boundPort();

        CallerService before = consumer(port, oldTrust);
        assertEquals("anonymous", before.caller());
        CallerService trustsNewOnly = consumer(port, newTrust);
        assertThrows(ConnectionUnavailableException.class, trustsNewOnly::caller);

        // what a renewal tool does: the certificate first, the key after (in between, the pair is refused)
        TestPki.Issued renewed = newCa.server("provider");
        TestPki.writeCertificates(files.cert(), renewed.certificate());
        TestPki.writeKey(files.key(), renewed.keys().getPrivate());

        // the consumer that failed reconnects in the background and now gets in
        Await.until("a consumer trusting only the new CA is served", Duration.ofSeconds(20), () -> {
            try {
                return trustsNewOnly.caller().equals("anonymous");
            } catch (ConnectionUnavailableException e) {
                return false;
            }
        });
        CallerService afterWithOldTrust = consumer(port, oldTrust);
        String refused = assertThrows(ConnectionUnavailableException.class, afterWithOldTrust::caller).getMessage();
        assertTrue(refused.contains("not signed by a CA in this consumer's tls-trust"), refused);
        for (int i = 0; i < 3; i++) {
            assertEquals("anonymous", before.caller()); // the connection from before the rotation
        }
    }
}
