package io.kestrel.rpc.core.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.PermissionDeniedException;
import io.kestrel.rpc.api.UnauthenticatedException;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
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
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Caller identity without mutual TLS: a token sent once per connection, checked by the provider's
 * authenticator, and per-service authorization by principal and role. Refusals come back as
 * {@link UnauthenticatedException} and {@link PermissionDeniedException}, never run the service, and
 * are never retried elsewhere.
 */
@Timeout(60)
class CallerAuthTest {
    @TempDir
    Path dir;
    private final List<RpcRuntime> runtimes = new ArrayList<>();

    @AfterEach
    void stopAll() {
        for (int i = runtimes.size() - 1; i >= 0; i--) {
            runtimes.get(i).close();
        }
    }

    private RpcRuntime provider(ProtocolConfig.Builder protocol, CallerServiceImpl impl,
            UnaryOperator<ServiceConfig.Builder<CallerService>> service) {
        RpcRuntime r = RpcRuntime.builder().protocol(protocol.build()).build();
        runtimes.add(r);
        r.export(service.apply(ServiceConfig.builder(CallerService.class, impl)).build());
        return r;
    }

    private CallerService consumer(String urls, String token) {
        RpcRuntime r = RpcRuntime.builder().build();
        runtimes.add(r);
        return r.refer(ReferenceConfig.builder(CallerService.class).url(urls).token(token).loadBalance("roundrobin")
                .timeout(Duration.ofSeconds(10)).build());
    }

    private static String url(RpcRuntime provider) {
        return "127.0.0.1:" + provider.boundPort();
    }

    @Test
    void aValidTokenIdentifiesTheCallerToProviderCode() {
        CallerServiceImpl impl = new CallerServiceImpl();
        // the authenticator found by name through ServiceLoader
        RpcRuntime provider = provider(TestRuntimes.loopback().authenticator("test-tokens"), impl,
                s -> s.allowRole("reader"));
        assertEquals("alice roles=[reader] by=token sans=[]", consumer(url(provider), "alice-token").caller());
        assertEquals(1, impl.calls.get());
    }

    @Test
    void missingUnknownAndRevokedTokensAreUnauthenticatedAndNeverRun() {
        CallerServiceImpl impl = new CallerServiceImpl();
        RpcRuntime provider = provider(TestRuntimes.loopback().authenticator(new TestTokens()), impl,
                s -> s.allowPrincipal("*"));
        String none = assertThrows(UnauthenticatedException.class, consumer(url(provider), null)::caller).getMessage();
        assertTrue(none.contains("admits only authenticated callers and this consumer is anonymous: it sent no token"),
                none);
        String unknown = assertThrows(UnauthenticatedException.class,
                consumer(url(provider), "mallory-token")::caller).getMessage();
        assertTrue(unknown.contains("its token was rejected by authenticator 'test-tokens': unknown token"), unknown);
        String revoked = assertThrows(UnauthenticatedException.class,
                consumer(url(provider), "revoked-token")::caller).getMessage();
        assertTrue(revoked.contains("token revoked"), revoked);
        assertEquals(0, impl.calls.get());
        assertEquals("bob roles=[admin] by=token sans=[]", consumer(url(provider), "bob-token").caller());
    }

    @Test
    void aKnownCallerOutsideTheServicesPrincipalsAndRolesIsDenied() {
        CallerServiceImpl impl = new CallerServiceImpl();
        RpcRuntime provider = provider(TestRuntimes.loopback().authenticator(new TestTokens()), impl,
                s -> s.allowPrincipal("bob").allowRole("auditor"));
        String denied = assertThrows(PermissionDeniedException.class,
                consumer(url(provider), "alice-token")::caller).getMessage();
        assertTrue(denied.contains("caller 'alice' (token, roles [reader]) may not call service "
                + CallerService.class.getName()), denied);
        assertTrue(!denied.contains("bob") && !denied.contains("auditor"), "allowed lists are not disclosed: " + denied);
        assertEquals(0, impl.calls.get());
        assertTrue(consumer(url(provider), "bob-token").caller().startsWith("bob"));
    }

    @Test
    void servicesWithoutRestrictionsServeAnonymousCallers() {
        RpcRuntime provider = provider(TestRuntimes.loopback().authenticator(new TestTokens()), new CallerServiceImpl(),
                s -> s);
        assertEquals("anonymous", consumer(url(provider), null).caller());
        assertEquals("anonymous", consumer(url(provider), "mallory-token").caller());
    }

    @Test
    void refusalsAreNeverRetriedOnAnotherProvider() {
        // one provider denies alice, the other admits her: a retry would turn each refusal into a success
        CallerServiceImpl denying = new CallerServiceImpl();
        CallerServiceImpl admitting = new CallerServiceImpl();
        RpcRuntime a = provider(TestRuntimes.loopback().authenticator(new TestTokens()), denying,
                s -> s.allowPrincipal("bob"));
        RpcRuntime b = provider(TestRuntimes.loopback().authenticator(new TestTokens()), admitting, s -> s);
        CallerService alice = consumer(url(a) + "," + url(b), "alice-token");
        int denied = 0;
        int served = 0;
        for (int i = 0; i < 10; i++) {
            try {
                alice.caller();
                served++;
            } catch (PermissionDeniedException e) {
                denied++;
            }
        }
        assertEquals(5, denied, "round robin sends every other call to the denying provider");
        assertEquals(5, served);
        assertEquals(5, admitting.calls.get());
        assertEquals(0, denying.calls.get());
        // that failover never sends these again is FailoverRuleTest's
    }

    @Test
    void tokenOverMutualTlsCarriesBothIdentities() {
        TestPki ca = TestPki.ca("Auth CA");
        TestPki.Files2 server = ca.server("provider").write(dir, "server");
        TestPki.Files2 client = ca.client("svc-a", "URI:spiffe://example.org/a").write(dir, "client");
        Path trust = ca.writeTrust(dir);
        RpcRuntime provider = provider(TestRuntimes.loopback().authenticator(new TestTokens()).tls(TlsConfig.builder()
                .keyPair(server.cert(), server.key()).trustRoots(trust).clientAuth(TlsConfig.ClientAuth.OPTIONAL)
                .build()), new CallerServiceImpl(), s -> s.allowPrincipal("spiffe://example.org/a"));
        RpcRuntime r = RpcRuntime.builder().build();
        runtimes.add(r);
        CallerService both = r.refer(ReferenceConfig.builder(CallerService.class).url(url(provider))
                .tls(TlsConfig.builder().keyPair(client.cert(), client.key()).trustRoots(trust).build())
                .token("alice-token").build());
        assertEquals("alice roles=[reader] by=token+tls sans=[URI:spiffe://example.org/a]", both.caller());
    }
    @Test
    void aTokenIsNotSentOverTlsThatOnlyTheJdkDefaultTrustStoreVerifies() {
        TestPki ca = TestPki.ca("Auth CA");
        TestPki.Files2 server = ca.server("provider").write(dir, "server");
        RpcRuntime provider = provider(TestRuntimes.loopback().authenticator(new TestTokens()).tls(TlsConfig.builder()
                .keyPair(server.cert(), server.key()).build()), new CallerServiceImpl(), s -> s);
        RpcRuntime r = RpcRuntime.builder().build();
        runtimes.add(r);
        String message = assertThrows(IllegalArgumentException.class, () -> r.refer(ReferenceConfig.builder(
                CallerService.class).url(url(provider)).tls(TlsConfig.builder().build()).token("alice-token").build()))
                .getMessage();
        assertTrue(message.contains("sends a token over TLS without tls-trust") && message.contains("Set tls-trust")
                && message.contains("-Dkestrel.rpc.consumer.tokenWithDefaultTrust=true"), message);
    }
}
