package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.PayloadTooLargeException;
import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.core.fixture.EchoServiceImpl;
import io.kestrel.rpc.core.fixture.payments.InsufficientFundsException;
import io.kestrel.rpc.core.fixture.payments.PaymentRejectedException;
import io.kestrel.rpc.core.fixture.payments.PaymentService;
import io.kestrel.rpc.core.fixture.payments.PaymentServiceImpl;
import io.kestrel.rpc.testing.Await;
import io.kestrel.rpc.testing.LogCapture;
import io.kestrel.rpc.transport.internal.ProviderLog;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The provider's WARN lines, as an operator reads them, over real sockets and the tests' real SLF4J
 * backend: service exceptions with the consumer's address, refused and undecodable requests, oversized
 * responses, and work finished after its caller gave up; one line per kind and method per interval.
 */
class ProviderLogTest {
    static RpcRuntime provider;
    static RpcRuntime consumer;

    @BeforeAll
    static void start() {
        provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().serialization("fory").payloadBytes(16 * 1024)
                .build()).build();
        provider.export(ServiceConfig.builder(PaymentService.class, new PaymentServiceImpl()).build());
        provider.export(ServiceConfig.builder(EchoService.class, new EchoServiceImpl()).build());
        consumer = RpcRuntime.builder().build();
    }

    @AfterAll
    static void stop() {
        consumer.close();
        provider.close();
    }

    @BeforeEach
    void forgetLinesOfEarlierTests() {
        ProviderLog.forgetRecentLines(); // the rate limit is JVM-wide: other test classes logged the same kinds
    }

    private static <T> T refer(Class<T> type, String serialization, Duration timeout) {
        return consumer.refer(ReferenceConfig.builder(type).url("127.0.0.1:" + provider.boundPort())
                .serialization(serialization).timeout(timeout).build());
    }

    @Test
    void serviceExceptionIsLoggedOncePerIntervalWithTheConsumerAddressAndStack() throws Exception {
        PaymentService payments = refer(PaymentService.class, "fory", Duration.ofSeconds(5));
        try (LogCapture log = new LogCapture()) {
            for (int i = 0; i < 3; i++) {
                assertThrows(PaymentRejectedException.class, () -> payments.pay("acc-7", 99));
            }
            Await.until("the service exception's WARN line", () -> !log.warnings("io.kestrel.rpc.provider.errors").isEmpty());
            List<String> lines = log.warnings("io.kestrel.rpc.provider.errors");
            assertEquals(1, lines.size(), "rate-limited to one line per method and exception type: " + lines);
            String line = lines.get(0);
            assertTrue(line.contains(PaymentService.class.getName() + "#pay threw " + PaymentRejectedException.class.getName()
                    + ": card declined for 99 cents for consumer 127.0.0.1:"), line);
            assertTrue(log.lines().stream().anyMatch(l -> l.contains("at " + PaymentServiceImpl.class.getName() + ".pay(")),
                    "the provider's stack trace follows the line");
        }
    }

    @Test
    void declaredExceptionIsPartOfTheContractAndNotWarned() throws Exception {
        PaymentService payments = refer(PaymentService.class, "fory", Duration.ofSeconds(5));
        try (LogCapture log = new LogCapture()) {
            assertThrows(InsufficientFundsException.class, () -> payments.withdraw("acc-7", Long.MAX_VALUE));
            // an undeclared one right after: its line shows the log is read, and the declared one left none
            assertThrows(PaymentRejectedException.class, () -> payments.pay("acc-8", 99));
            Await.until("the undeclared exception's WARN line", () -> !log.warnings("io.kestrel.rpc.provider.errors").isEmpty());
            List<String> lines = log.warnings("io.kestrel.rpc.provider.errors");
            assertTrue(lines.stream().noneMatch(l -> l.contains("withdraw")), "declared exception warned: " + lines);
        }
    }

    @Test
    void refusedRequestIsLoggedWithTheAnswerTheConsumerGot() throws Exception {
        // the provider accepts only fory (the protocol's serialization). A Kestrel consumer would leave it out
        // before sending (it agrees with the provider first), so a peer that ignores the agreement sends hessian2
        try (LogCapture log = new LogCapture(); RawClient raw = new RawClient(provider.boundPort())) {
            raw.writeRequest(1, io.kestrel.rpc.api.serialization.SerializerIds.HESSIAN2, 0,
                    EchoService.class.getName() + "#echo(java.lang.String)", new byte[] {0});
            RawClient.Response answer = raw.read();
            assertTrue(answer.message().contains("was not exported with serialization hessian2"), answer.message());
            Await.until("the refusal's WARN line", () -> !log.warnings("io.kestrel.rpc.provider.refused").isEmpty());
            String line = log.warnings("io.kestrel.rpc.provider.refused").get(0);
            assertTrue(line.contains("from 127.0.0.1:") && line.contains("with BAD_REQUEST: ")
                    && line.contains("was not exported with serialization hessian2"), line);
        }
    }

    @Test
    void oversizedResponseIsLogged() throws Exception {
        EchoService echo = refer(EchoService.class, "fory", Duration.ofSeconds(5));
        try (LogCapture log = new LogCapture()) {
            assertThrows(PayloadTooLargeException.class, () -> echo.blob(64 * 1024));
            Await.until("the oversized response's WARN line", () -> !log.warnings("io.kestrel.rpc.provider.oversized").isEmpty());
            String line = log.warnings("io.kestrel.rpc.provider.oversized").get(0);
            assertTrue(line.contains("response of " + EchoService.class.getName() + "#blob is ")
                    && line.contains("over the provider's payload limit of 16384 bytes"), line);
        }
    }

    @Test
    void workFinishedAfterTheCallersDeadlineIsLogged() throws Exception {
        EchoService echo = refer(EchoService.class, "fory", Duration.ofMillis(200));
        try (LogCapture log = new LogCapture()) {
            assertThrows(RpcTimeoutException.class, () -> echo.sleep(600));
            Await.until("the late work's WARN line", () -> !log.warnings("io.kestrel.rpc.provider.late").isEmpty());
            String line = log.warnings("io.kestrel.rpc.provider.late").get(0);
            assertTrue(line.contains(EchoService.class.getName() + "#sleep finished after ")
                    && line.contains("beyond the caller's timeout of 200 ms"), line);
        }
    }
}
