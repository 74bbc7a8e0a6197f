package io.kestrel.rpc.core.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.PermissionDeniedException;
import io.kestrel.rpc.api.UnauthenticatedException;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.generic.GenericService;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.TestRuntimes;
import io.kestrel.rpc.core.fixture.orders.OrderService;
import io.kestrel.rpc.core.fixture.orders.OrderServiceImpl;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Generic calls and metadata requests pass the service's caller admission like its own methods. */
@org.junit.jupiter.api.Timeout(value = 120, unit = java.util.concurrent.TimeUnit.SECONDS)
class GenericCallerAuthTest {
    /** The version of the service exported for role admin only. */
    private static final String ADMINS = "admins";
    private static RpcRuntime provider;
    private static RpcRuntime aliceRuntime;
    private static RpcRuntime bobRuntime;

    @BeforeAll
    static void start() {
        provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().authenticator(new TestTokens()).build()).build();
        provider.export(ServiceConfig.builder(OrderService.class, new OrderServiceImpl()).allowPrincipal("bob").build());
        provider.export(ServiceConfig.builder(OrderService.class, new OrderServiceImpl()).version(ADMINS)
                .allowRole("admin").build());
        aliceRuntime = RpcRuntime.builder().build(); // one connection per provider and runtime: one token each
        bobRuntime = RpcRuntime.builder().build();
    }

    @AfterAll
    static void stop() {
        aliceRuntime.close();
        bobRuntime.close();
        provider.close();
    }

    private static GenericService as(String token) {
        return as(token, "");
    }

    private static GenericService as(String token, String version) {
        return (token.startsWith("alice") ? aliceRuntime : bobRuntime).refer(ReferenceConfig.generic(OrderService.class.getName())
                .version(version).url("127.0.0.1:" + provider.boundPort()).token(token).timeout(Duration.ofSeconds(5))
                .build());
    }

    @Test
    void aServiceForARoleAnswersGenericCallsAndMetadataOnlyToThatRole() {
        GenericService reader = as("alice-token", ADMINS);
        String denied = assertThrows(PermissionDeniedException.class,
                () -> reader.$invoke("add", new String[] {"int", "int"}, new Object[] {1, 2})).getMessage();
        assertTrue(denied.contains("caller 'alice'") && denied.contains("allowed principals or roles"), denied);
        String described = assertThrows(PermissionDeniedException.class, reader::$metadata).getMessage();
        assertTrue(described.contains("may not call service"), described);
        GenericService admin = as("bob-token", ADMINS);
        assertEquals(3, ((Number) admin.$invoke("add", new String[] {"int", "int"}, new Object[] {1, 2})).intValue());
        assertEquals(ADMINS, admin.$metadata().version());
    }

    @Test
    void aCallerTheServiceDoesNotAdmitCanNeitherInvokeNorDescribeIt() {
        GenericService alice = as("alice-token");
        String denied = assertThrows(PermissionDeniedException.class,
                () -> alice.$invoke("add", new String[] {"int", "int"}, new Object[] {1, 2})).getMessage();
        assertTrue(denied.contains("caller 'alice'"), denied);
        assertThrows(PermissionDeniedException.class, alice::$metadata);
    }

    @Test
    void anAdmittedCallerInvokesAndDescribes() {
        GenericService bob = as("bob-token");
        assertEquals(3, ((Number) bob.$invoke("add", new String[] {"int", "int"}, new Object[] {1, 2})).intValue());
        assertEquals(OrderService.class.getName(), bob.$metadata().interfaceName());
    }

    @Test
    void anAnonymousCallerIsUnauthenticated() {
        try (RpcRuntime anonymous = RpcRuntime.builder().build()) {
            assertThrows(UnauthenticatedException.class, () -> anonymous.inspect().metadata(
                    io.kestrel.rpc.api.ServiceKey.of(OrderService.class), "127.0.0.1:" + provider.boundPort()));
        }
    }
}
