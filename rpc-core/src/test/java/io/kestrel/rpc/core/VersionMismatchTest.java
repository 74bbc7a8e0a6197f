package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.NoProviderException;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.core.fixture.payments.PaymentService;
import io.kestrel.rpc.core.fixture.payments.PaymentServiceImpl;
import java.time.Duration;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A consumer asking for a version or group nobody provides is told which ones are registered for
 * the interface (read from the registry), at refer with check on and at call time without it.
 */
class VersionMismatchTest {
    static TestingServer zk;
    static RpcRuntime provider;
    static RpcRuntime consumer;

    @BeforeAll
    static void start() throws Exception {
        zk = new TestingServer(true);
        provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).registry(registry()).build();
        provider.export(ServiceConfig.builder(PaymentService.class, new PaymentServiceImpl()).version("2.0").build());
        provider.export(ServiceConfig.builder(PaymentService.class, new PaymentServiceImpl()).version("1.0").group("blue")
                .build());
        consumer = RpcRuntime.builder().registry(registry()).build();
    }

    private static RegistryConfig registry() {
        return RegistryConfig.builder().address("zookeeper://" + zk.getConnectString())
                .sessionTimeout(Duration.ofSeconds(4)).connectionTimeout(Duration.ofSeconds(5)).build();
    }

    @AfterAll
    static void stop() throws Exception {
        consumer.close();
        provider.close();
        zk.close();
    }

    private static final String REGISTERED = "registered for " + PaymentService.class.getName()
            + ": version '1.0' group 'blue', version '2.0' group ''. Set version and group on the reference to one of"
            + " those (or export the one it asks for)";

    @Test
    void referWithCheckListsTheRegisteredVersionsAndGroups() {
        NoProviderException e = assertThrows(NoProviderException.class, () -> consumer.refer(
                ReferenceConfig.builder(PaymentService.class).version("1.0").check(true).build()));
        assertTrue(e.getMessage().contains("providers seen: none; " + REGISTERED), e.getMessage());
    }

    @Test
    void callWithoutCheckListsThemToo() {
        PaymentService payments = consumer.refer(ReferenceConfig.builder(PaymentService.class).version("1.0")
                .check(false).timeout(Duration.ofSeconds(2)).build());
        NoProviderException e = assertThrows(NoProviderException.class, () -> payments.pay("acc", 1));
        assertTrue(e.getMessage().contains("providers seen: none; " + REGISTERED), e.getMessage());
    }

    @Test
    void anInterfaceNobodyRegisteredSaysSo() {
        NoProviderException e = assertThrows(NoProviderException.class, () -> consumer.refer(
                ReferenceConfig.builder(EchoService.class).check(true).build()));
        assertTrue(e.getMessage().contains("providers seen: none; no other version or group of "
                + EchoService.class.getName() + " is registered either"), e.getMessage());
    }
}
