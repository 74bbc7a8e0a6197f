package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.RemoteInvocationException;
import io.kestrel.rpc.api.RemoteOrigin;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.fixture.payments.InsufficientFundsException;
import io.kestrel.rpc.core.fixture.payments.PaymentRejectedException;
import io.kestrel.rpc.core.fixture.payments.PaymentService;
import io.kestrel.rpc.core.fixture.payments.PaymentServiceImpl;
import io.kestrel.rpc.core.fixture.payments.RefundRefusedException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * A provider's exceptions as a Dubbo user meets them, over a real socket with every serialization:
 * an undeclared business exception from the service's API code source arrives as its own type with
 * its fields, a declared checked one too, a JDK exception keeps its (lazily computed) message, an
 * exception of any other code source arrives as RemoteInvocationException, and each says which
 * provider threw it, with the provider's frames and the consumer's call site.
 */
class RemoteExceptionTest {
    static final List<String> SERIALIZATIONS = TestRuntimes.SERIALIZATIONS;

    static RpcRuntime provider;
    static RpcRuntime compatibleProvider;
    static RpcRuntime consumer;

    @BeforeAll
    static void start() {
        provider = paymentProvider(false);
        compatibleProvider = paymentProvider(true);
        consumer = RpcRuntime.builder().build();
    }

    private static RpcRuntime paymentProvider(boolean compatible) {
        RpcRuntime p = RpcRuntime.builder().protocol(TestRuntimes.loopback().compatible(compatible).build()).build();
        ServiceConfig.Builder<PaymentService> service = ServiceConfig.builder(PaymentService.class, new PaymentServiceImpl());
        for (String name : List.of("kryo", "fst", "hessian2", "fastjson2", "java", "fory")) {
            service.serialization(name);
        }
        p.export(service.build());
        return p;
    }

    @AfterAll
    static void stop() {
        consumer.close();
        compatibleProvider.close();
        provider.close();
    }

    private static RpcRuntime target(String entry) {
        return TestRuntimes.compatible(entry) ? compatibleProvider : provider;
    }

    private static PaymentService payments(String entry) {
        return consumer.refer(ReferenceConfig.builder(PaymentService.class).url("127.0.0.1:" + target(entry).boundPort())
                .serialization(TestRuntimes.name(entry)).compatible(TestRuntimes.compatible(entry))
                .timeout(Duration.ofSeconds(5)).build());
    }

    @ParameterizedTest
    @FieldSource("SERIALIZATIONS")
    void undeclaredExceptionFromTheApiCodeSourceArrivesAsItselfWithItsFields(String entry) {
        PaymentRejectedException e = assertThrows(PaymentRejectedException.class, () -> payments(entry).pay("acc-9", 1250));
        assertEquals("acc-9", e.getAccount());
        assertEquals(402, e.getCode());
        assertEquals("card declined for 1250 cents", e.getMessage());
        assertCameFromProvider(e, entry, "pay");
    }

    @ParameterizedTest
    @FieldSource("SERIALIZATIONS")
    void exceptionWithANoArgConstructorKeepsItsFieldsAndExceptUnderFastjson2ItsMessage(String entry) {
        RefundRefusedException e = assertThrows(RefundRefusedException.class, () -> payments(entry).refund("o-17"));
        assertEquals("o-17", e.getOrderId());
        // fastjson2 builds such an exception through its no-arg constructor and cannot set Throwable's message
        assertEquals(entry.equals("fastjson2") ? null : "order o-17 was shipped", e.getMessage());
        assertCameFromProvider(e, entry, "refund");
    }

    @ParameterizedTest
    @FieldSource("SERIALIZATIONS")
    void declaredCheckedExceptionArrivesAsItselfWithItsFields(String entry) {
        InsufficientFundsException e = assertThrows(InsufficientFundsException.class,
                () -> payments(entry).withdraw("acc-1", 500));
        assertEquals(400, e.getMissingCents());
        assertEquals("balance too low on acc-1", e.getMessage());
        assertCameFromProvider(e, entry, "withdraw");
    }

    @ParameterizedTest
    @FieldSource("SERIALIZATIONS")
    void providerNullPointerExceptionKeepsItsHelpfulMessage(String entry) {
        NullPointerException e = assertThrows(NullPointerException.class, () -> payments(entry).nameLength("nobody"));
        assertEquals("Cannot invoke \"String.length()\" because \"owner\" is null", e.getMessage());
        assertCameFromProvider(e, entry, "nameLength");
    }

    @ParameterizedTest
    @FieldSource("SERIALIZATIONS")
    void exceptionOfAnotherCodeSourceArrivesAsRemoteInvocationException(String entry) {
        // io.netty.channel.ChannelException: neither declared, nor JDK, nor from the API's code source
        RemoteInvocationException e = assertThrows(RemoteInvocationException.class, () -> payments(entry).foreign("no route"));
        assertEquals("io.netty.channel.ChannelException", e.remoteClassName());
        assertEquals("no route", e.remoteMessage());
        RemoteOrigin origin = RemoteOrigin.of(e).orElseThrow(() -> new AssertionError("no RemoteOrigin on " + e));
        assertEquals("127.0.0.1:" + target(entry).boundPort(), origin.provider());
    }

    /** The marker names the provider and method; provider frames first, then this test's call site. */
    private static void assertCameFromProvider(Throwable e, String entry, String method) {
        RemoteOrigin origin = RemoteOrigin.of(e).orElseThrow(() -> new AssertionError("no RemoteOrigin on " + e));
        assertEquals("127.0.0.1:" + target(entry).boundPort(), origin.provider());
        assertEquals(PaymentService.class.getName() + "#" + method, origin.method());
        assertTrue(origin.getMessage().contains("thrown by provider 127.0.0.1:" + target(entry).boundPort()),
                origin.getMessage());
        assertTrue(Arrays.stream(e.getStackTrace()).anyMatch(f -> f.getClassName().equals(PaymentServiceImpl.class.getName())
                && f.getMethodName().equals(method)), "provider frames in " + Arrays.toString(e.getStackTrace()));
        assertTrue(Arrays.stream(origin.getStackTrace()).anyMatch(f -> f.getClassName().equals(RemoteExceptionTest.class.getName())),
                "consumer call site in " + Arrays.toString(origin.getStackTrace()));
    }
}
