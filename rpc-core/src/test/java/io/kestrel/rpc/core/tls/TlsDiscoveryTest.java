package io.kestrel.rpc.core.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.TransportException;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.config.TlsConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.TestRuntimes;
import io.kestrel.rpc.core.fixture.CallerService;
import io.kestrel.rpc.core.fixture.CallerServiceImpl;
import io.kestrel.rpc.testing.TestPki;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Discovery through a real (in-process) ZooKeeper: a TLS provider's record says it requires TLS, so
 * a plaintext reference is refused when it is created, and a TLS reference to plaintext providers
 * likewise; matching references are served.
 */
@Timeout(90)
class TlsDiscoveryTest {
    @TempDir
    Path dir;
    private TestingServer zk;
    private final List<RpcRuntime> runtimes = new ArrayList<>();
    private final TestPki ca = TestPki.ca("Discovery CA");

    @BeforeEach
    void startZooKeeper() throws Exception {
        zk = new TestingServer(true);
    }

    @AfterEach
    void stopAll() throws Exception {
        for (int i = runtimes.size() - 1; i >= 0; i--) {
            runtimes.get(i).close();
        }
        zk.close();
    }

    private RpcRuntime.Builder runtime() {
        return RpcRuntime.builder().registry(RegistryConfig.builder().address("zookeeper://" + zk.getConnectString())
                .build());
    }

    private RpcRuntime start(RpcRuntime.Builder b) {
        RpcRuntime r = b.build();
        runtimes.add(r);
        return r;
    }

    private ReferenceConfig.Builder<CallerService> reference() {
        return ReferenceConfig.builder(CallerService.class).timeout(Duration.ofSeconds(10));
    }

    @Test
    void aPlaintextReferenceToTlsProvidersIsRefusedAtReferTime() {
        TestPki.Files2 files = ca.server("provider").write(dir, "provider");
        RpcRuntime provider = start(runtime().protocol(TestRuntimes.loopback().tls(TlsConfig.builder()
                .keyPair(files.cert(), files.key()).build()).build()));
        provider.export(ServiceConfig.builder(CallerService.class, new CallerServiceImpl()).build());

        RpcRuntime plain = start(runtime());
        String message = assertThrows(TransportException.class, () -> plain.refer(reference().build())).getMessage();
        assertTrue(message.contains("Every provider of " + CallerService.class.getName() + " (127.0.0.1:"
                + provider.boundPort() + ") requires TLS, per its registry record"), message);

        RpcRuntime secure = start(runtime());
        CallerService ok = secure.refer(reference().tls(TlsConfig.builder().trustRoots(ca.writeTrust(dir)).build())
                .build());
        assertEquals("anonymous", ok.caller());
    }

    @Test
    void aTlsReferenceToPlaintextProvidersIsRefusedAtReferTime() {
        RpcRuntime provider = start(runtime().protocol(TestRuntimes.loopback().build()));
        provider.export(ServiceConfig.builder(CallerService.class, new CallerServiceImpl()).build());

        RpcRuntime secure = start(runtime());
        String message = assertThrows(TransportException.class, () -> secure.refer(reference()
                .tls(TlsConfig.builder().trustRoots(ca.writeTrust(dir)).build()).build())).getMessage();
        assertTrue(message.contains("serves plaintext, per its registry record, but this reference is configured"
                + " for TLS"), message);
    }
}
