package io.kestrel.rpc.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.TransportException;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.testing.Await;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The console's HTTP surface without a browser: what it refuses, how, and what its JSON says. */
@Timeout(60)
class ConsoleHttpTest {
    static final String TOKEN = "test-token-0123456789";
    private RpcRuntime runtime;

    private int start(ConsoleConfig.Builder console) {
        runtime = RpcRuntime.builder().protocol(ProtocolConfig.builder().port(0).build())
                .addOn(KestrelConsole.of(console.enabled(true).port(0).build())).build();
        runtime.export(ServiceConfig.builder(Greeter.class, new GreeterImpl()).version("1.0").build());
        return runtime.addOn(KestrelConsole.class).orElseThrow().port();
    }

    @AfterEach
    void close() {
        if (runtime != null) {
            runtime.close();
        }
    }

    @Test
    void readOnlyByDefaultRefusesInvokeAndMutationsWith403() throws Exception {
        int port = start(ConsoleConfig.builder());
        var offline = ConsoleHttp.send(port, "POST", "/api/offline", Map.of("Authorization", "Bearer " + TOKEN,
                "Content-Type", "application/json"), "{\"service\":\"" + Greeter.class.getName() + ":1.0\"}");
        assertEquals(403, offline.status());
        assertTrue(offline.body().contains("rpc.console.allow-mutations=true"), offline.body());
        var invoke = ConsoleHttp.send(port, "POST", "/api/invoke", Map.of("Content-Type", "application/json"), "{}");
        assertEquals(403, invoke.status());
        assertTrue(invoke.body().contains("rpc.console.allow-invoke=true"), invoke.body());
        assertTrue(runtime.exporter(io.kestrel.rpc.api.ServiceKey.parse(Greeter.class.getName() + ":1.0")).orElseThrow().isOnline());
    }

    @Test
    void mutationsNeedTheBearerTokenAndJson() throws Exception {
        int port = start(ConsoleConfig.builder().allowMutations(true).token(TOKEN));
        String body = "{\"service\":\"" + Greeter.class.getName() + ":1.0\"}";
        var none = ConsoleHttp.send(port, "POST", "/api/offline", Map.of("Content-Type", "application/json"), body);
        assertEquals(401, none.status());
        assertTrue(none.body().contains("Authorization: Bearer"), none.body());
        assertTrue(none.header("WWW-Authenticate").startsWith("Bearer"));
        var wrong = ConsoleHttp.send(port, "POST", "/api/offline", Map.of("Content-Type", "application/json",
                "Authorization", "Bearer " + TOKEN + "x"), body);
        assertEquals(401, wrong.status());
        assertTrue(wrong.body().contains("does not match rpc.console.token"), wrong.body());
        var cookieOnly = ConsoleHttp.send(port, "POST", "/api/offline", Map.of("Content-Type", "application/json",
                "Cookie", "token=" + TOKEN), body);
        assertEquals(401, cookieOnly.status());
        var form = ConsoleHttp.send(port, "POST", "/api/offline", Map.of("Content-Type",
                "application/x-www-form-urlencoded", "Authorization", "Bearer " + TOKEN), "service=x");
        assertEquals(415, form.status());
        var crossSite = ConsoleHttp.send(port, "POST", "/api/offline", Map.of("Content-Type", "application/json",
                "Authorization", "Bearer " + TOKEN, "Origin", "http://evil.example"), body);
        assertEquals(403, crossSite.status());
        assertTrue(crossSite.body().contains("cross-origin"), crossSite.body());
        var badService = ConsoleHttp.send(port, "POST", "/api/offline", Map.of("Content-Type", "application/json",
                "Authorization", "Bearer " + TOKEN), "{\"service\":\"com.example.Nope\"}");
        assertEquals(400, badService.status());
        assertTrue(badService.body().contains("does not export com.example.Nope"), badService.body());
    }

    @Test
    void answersOnlyGetAndPostWithNoCorsAndStrictHeaders() throws Exception {
        int port = start(ConsoleConfig.builder());
        for (String method : new String[] {"PUT", "DELETE", "OPTIONS", "PATCH"}) {
            var a = ConsoleHttp.send(port, method, "/api/services", Map.of("Origin", "http://evil.example",
                    "Access-Control-Request-Method", "POST"), method.equals("PUT") ? "{}" : null);
            assertEquals(405, a.status(), method);
            assertEquals("GET, POST", a.header("Allow"));
            assertNull(a.header("Access-Control-Allow-Origin"), method);
        }
        var page = ConsoleHttp.get(port, "/");
        assertEquals(200, page.status());
        assertTrue(page.header("Content-Security-Policy").contains("script-src 'self'"));
        assertEquals("nosniff", page.header("X-Content-Type-Options"));
        assertEquals("DENY", page.header("X-Frame-Options"));
        assertNull(page.header("Access-Control-Allow-Origin"));
        assertEquals(404, ConsoleHttp.get(port, "/../../etc/passwd").status());
        assertEquals(404, ConsoleHttp.get(port, "/io/kestrel/rpc/console/web/console.js").status());
    }

    @Test
    void refusesAForeignHostHeader() throws Exception {
        int port = start(ConsoleConfig.builder());
        var rebound = ConsoleHttp.send(port, "GET", "/api/services", Map.of("Host", "attacker.example:" + port), null);
        assertEquals(403, rebound.status());
        assertTrue(rebound.body().contains("not a loopback name"), rebound.body());
        assertEquals(200, ConsoleHttp.send(port, "GET", "/api/services", Map.of("Host", "localhost:" + port), null)
                .status());
    }

    @Test
    void boundsTheRequestBody() throws Exception {
        int port = start(ConsoleConfig.builder().allowInvoke(true).token(TOKEN).maxRequestBytes(2048));
        var big = ConsoleHttp.send(port, "POST", "/api/invoke", Map.of("Content-Type", "application/json",
                "Authorization", "Bearer " + TOKEN), "{\"x\":\"" + "a".repeat(4096) + "\"}");
        assertEquals(413, big.status());
        assertTrue(big.body().contains("rpc.console.max-request-bytes"), big.body());
        var deep = ConsoleHttp.send(port, "POST", "/api/invoke", Map.of("Content-Type", "application/json",
                "Authorization", "Bearer " + TOKEN), "[".repeat(100) + "]".repeat(100));
        assertEquals(400, deep.status());
        assertTrue(deep.body().contains("nested deeper than 64"), deep.body());
    }

    @Test
    void jsonReportsServicesConnectionsAndCallFigures() throws Exception {
        int port = start(ConsoleConfig.builder());
        Greeter greeter = runtime.refer(ReferenceConfig.builder(Greeter.class).version("1.0")
                .url("127.0.0.1:" + runtime.boundPort()).build());
        for (int i = 0; i < 7; i++) {
            greeter.greet("n" + i);
        }
        assertThrows(RuntimeException.class, () -> greeter.fail("x"));
        var services = ConsoleHttp.get(port, "/api/services");
        assertEquals(200, services.status());
        assertTrue(services.body().contains("\"service\":\"" + Greeter.class.getName() + ":1.0\""), services.body());
        assertTrue(services.body().contains("\"online\":true"), services.body());
        var connections = ConsoleHttp.get(port, "/api/connections");
        assertTrue(connections.body().contains("\"address\":\"127.0.0.1:" + runtime.boundPort() + "\",\"state\":\"READY\""),
                connections.body());
        Await.until("both sides' figures", () -> {
            try {
                String calls = ConsoleHttp.get(port, "/api/calls").body();
                return calls.contains("\"side\":\"consumer\",\"service\":\"" + Greeter.class.getName()
                        + ":1.0\",\"method\":\"greet(String)\",\"calls\":7,\"errors\":0")
                        && calls.contains("\"side\":\"provider\",\"service\":\"" + Greeter.class.getName()
                        + ":1.0\",\"method\":\"fail(String)\",\"calls\":1,\"errors\":1");
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    @Test
    void streamsShowPerConnectionOnTheServerAndAmongCallsWithTheirMessages() throws Exception {
        int port = start(ConsoleConfig.builder());
        Ticker.Impl impl = new Ticker.Impl();
        runtime.export(ServiceConfig.builder(Ticker.class, impl).build());
        Ticker ticker = runtime.refer(ReferenceConfig.builder(Ticker.class).url("127.0.0.1:" + runtime.boundPort())
                .timeout(java.time.Duration.ofSeconds(30)).build());
        Ticks done = new Ticks();
        ticker.ticks(50, done);
        assertNull(done.ended.get(20, java.util.concurrent.TimeUnit.SECONDS));
        Ticks held = new Ticks();
        ticker.hold(3, held);
        Await.until("the held stream's messages arrived", () -> held.count.get() == 3);
        String connections = ConsoleHttp.get(port, "/api/connections").body();
        assertTrue(connections.contains("\"address\":\"127.0.0.1:" + runtime.boundPort()
                + "\",\"state\":\"READY\",\"pendingCalls\":1,\"openStreams\":1"), connections);
        assertTrue(connections.contains("\"inFlightCalls\":0,\"openStreams\":1"), connections);
        String service = "\"service\":\"" + Ticker.class.getName() + "\"";
        Await.until("the streams among the calls", () -> {
            String calls = get(port, "/api/calls");
            return calls.contains("\"side\":\"consumer\"," + service + ",\"method\":\"ticks(Integer, StreamObserver)\","
                    + "\"calls\":1,\"errors\":0")
                    && calls.matches(".*\"method\":\"ticks\\(Integer, StreamObserver\\)\"[^}]*\"openStreams\":0,"
                    + "\"messagesIn\":50,\"messagesOut\":0.*")
                    && calls.matches(".*\"side\":\"provider\"," + service.replace("(", "\\(")
                    + ",\"method\":\"ticks\\(Integer, StreamObserver\\)\"[^}]*\"openStreams\":0,"
                    + "\"messagesIn\":0,\"messagesOut\":50.*")
                    && calls.matches(".*\"side\":\"consumer\"," + service + ",\"method\":\"hold\\(Integer, "
                    + "StreamObserver\\)\",\"calls\":0,[^}]*\"openStreams\":1,\"messagesIn\":3,\"messagesOut\":0.*");
        });
        held.handle.cancel("the test is done");
        Await.until("no stream open", () -> {
            String c = get(port, "/api/connections");
            return c.contains("\"pendingCalls\":0,\"openStreams\":0") && c.contains("\"inFlightCalls\":0,\"openStreams\":0");
        });
        Await.until("the cancelled stream counted as an error", () -> get(port, "/api/calls").matches(".*\"side\":"
                + "\"consumer\",[^}]*\"method\":\"hold\\(Integer, StreamObserver\\)\",\"calls\":1,\"errors\":1.*"));
    }

    private static String get(int port, String path) {
        try {
            return ConsoleHttp.get(port, path).body();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aTakenPortFailsStartupNamingTheSetting() throws Exception {
        int port = start(ConsoleConfig.builder());
        TransportException e = assertThrows(TransportException.class, () -> RpcRuntime.builder()
                .addOn(KestrelConsole.of(ConsoleConfig.builder().enabled(true).port(port).build())).build());
        assertTrue(e.getMessage().contains("rpc.console.port"), e.getMessage());
    }

    @Test
    void invokeOrMutationsWithoutATokenFailConfiguration() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ConsoleConfig.builder().enabled(true).allowInvoke(true).build());
        assertTrue(e.getMessage().contains("rpc.console.token"), e.getMessage());
        IllegalArgumentException shortToken = assertThrows(IllegalArgumentException.class,
                () -> ConsoleConfig.builder().token("short"));
        assertTrue(shortToken.getMessage().contains("at least 16 characters"), shortToken.getMessage());
    }
}
