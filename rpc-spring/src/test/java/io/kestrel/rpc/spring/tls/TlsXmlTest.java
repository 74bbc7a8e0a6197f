package io.kestrel.rpc.spring.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.UnauthenticatedException;
import io.kestrel.rpc.spring.fixture.CallerService;
import io.kestrel.rpc.testing.TestPki;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.support.GenericXmlApplicationContext;
import org.springframework.core.env.MapPropertySource;

/**
 * TLS, mutual TLS, a token and per-service roles configured in Spring XML only (tls-provider.xml,
 * tls-consumer.xml), over a real ZooKeeper and real sockets; and a bad file path failing the context
 * with the file and the attribute named.
 */
@Timeout(90)
class TlsXmlTest {
    @TempDir
    static Path dir;
    static TestingServer zk;
    static GenericXmlApplicationContext provider;

    @BeforeAll
    static void start() throws Exception {
        zk = new TestingServer(true);
        TestPki ca = TestPki.ca("Xml CA");
        ca.server("provider").write(dir, "server");
        ca.client("consumer", "URI:spiffe://example.org/consumer").write(dir, "client");
        Files.move(ca.writeTrust(dir), dir.resolve("ca.crt"));
        provider = xml("tls-provider.xml", Map.of("zk", "zookeeper://" + zk.getConnectString(), "dir", dir.toString()));
    }

    @AfterAll
    static void stop() throws Exception {
        provider.close();
        zk.close();
    }

    private static GenericXmlApplicationContext xml(String resource, Map<String, Object> properties) {
        GenericXmlApplicationContext ctx = new GenericXmlApplicationContext();
        ctx.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test", properties));
        ctx.load("classpath:io/kestrel/rpc/spring/" + resource);
        ctx.refresh();
        return ctx;
    }

    private static Map<String, Object> consumerProperties(String token, String trust) {
        return Map.of("zk", "zookeeper://" + zk.getConnectString(), "dir", dir.toString(), "token", token,
                "trust", trust);
    }

    @Test
    void xmlConsumerWithCertificateAndTokenIsIdentifiedByTheXmlProvider() {
        try (GenericXmlApplicationContext consumer = xml("tls-consumer.xml", consumerProperties("s3cret",
                dir.resolve("ca.crt").toString()))) {
            String who = consumer.getBean(CallerService.class).caller();
            assertTrue(who.startsWith("ops [admin] token+tls "), who);
            assertTrue(who.contains("CN=consumer"), who);
        }
    }

    @Test
    void aWrongTokenIsRefusedWithTheAuthenticatorsReason() {
        try (GenericXmlApplicationContext consumer = xml("tls-consumer.xml", consumerProperties("guess",
                dir.resolve("ca.crt").toString()))) {
            String message = assertThrows(UnauthenticatedException.class,
                    consumer.getBean(CallerService.class)::caller).getMessage();
            assertTrue(message.contains("rejected by authenticator 'static-tokens': unknown token"), message);
        }
    }

    @Test
    void aMissingTrustFileFailsTheContextNamingFileAndAttribute() {
        Path missing = dir.resolve("no-such-ca.crt");
        Exception e = assertThrows(Exception.class, () -> xml("tls-consumer.xml", consumerProperties("s3cret",
                missing.toString())).close());
        StringBuilder all = new StringBuilder();
        for (Throwable c = e; c != null; c = c.getCause()) {
            all.append(c.getMessage()).append('\n');
        }
        assertTrue(all.toString().contains("TLS file " + missing + " (reference tls-trust) does not exist"),
                all.toString());
    }
}
