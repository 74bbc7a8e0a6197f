package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.BadRequestException;
import io.kestrel.rpc.api.MissingClassException;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.core.fixture.Voucher;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The second error a user meets after allowlisting a class: the provider now accepts the class but
 * does not have it. The answer names the class and where to deploy it, not "the bytes are corrupt".
 */
class MissingClassTest {
    static MissingClasses missing;
    static RpcRuntime provider;
    static RpcRuntime consumer;

    @BeforeAll
    static void start() throws Exception {
        missing = new MissingClasses();
        // the user followed the first error's advice: allowed-packages names the package on both sides
        provider = TestRuntimes.echoProvider(TestRuntimes.loopback().allowPackage(MissingClasses.PACKAGE).build());
        consumer = RpcRuntime.builder().protocol(TestRuntimes.loopback().allowPackage(MissingClasses.PACKAGE).build()).build();
    }

    @AfterAll
    static void stop() throws Exception {
        consumer.close();
        provider.close();
        missing.close();
    }

    private static RpcRuntime freshConsumer() {
        return RpcRuntime.builder().protocol(TestRuntimes.loopback().allowPackage(MissingClasses.PACKAGE).build()).build();
    }

    private static Object sendCoupon(String serialization) throws Exception {
        EchoService s = consumer.refer(ReferenceConfig.builder(EchoService.class).url("127.0.0.1:" + provider.boundPort())
                .serialization(serialization).timeout(Duration.ofSeconds(5)).build());
        Object coupon = missing.coupon();
        Thread t = Thread.currentThread();
        ClassLoader old = t.getContextClassLoader();
        t.setContextClassLoader(missing.loader()); // the consumer application has the class
        try {
            return s.echoObject(coupon);
        } finally {
            t.setContextClassLoader(old);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"kryo", "fst", "java", "fory"})
    void classTheProviderLacksIsNamedWithWhereToDeployIt(String serialization) {
        BadRequestException e = assertThrows(BadRequestException.class, () -> sendCoupon(serialization));
        assertTrue(e.getMessage().contains("the provider cannot load class " + MissingClasses.CLASS
                + ", which the consumer sent (the allowlist accepts it, but it is not on the provider's class path). Deploy"
                + " the jar that holds " + MissingClasses.CLASS + " with the provider"), e.getMessage());
        assertFalse(e.getMessage().contains("corrupt"), e.getMessage());
    }

    /** A service taking a type both sides have; the consumer sends an implementation only it has. */
    public interface VoucherService {
        String redeem(Voucher voucher);
    }

    /** fastjson2 is not listed: it reads the value without an error (into some Voucher) and the call runs. */
    @ParameterizedTest
    @ValueSource(strings = {"kryo", "fst", "hessian2", "java", "fory"})
    void implementationTheProviderLacksIsNamed(String serialization) throws Exception {
        try (RpcRuntime p = RpcRuntime.builder().protocol(TestRuntimes.loopback().serialization(serialization)
                .allowPackage(MissingClasses.PACKAGE).build()).build();
             RpcRuntime consumer = freshConsumer()) {
            p.export(ServiceConfig.builder(VoucherService.class, (VoucherService) v -> "redeemed " + v).build());
            VoucherService s = consumer.refer(ReferenceConfig.builder(VoucherService.class).url("127.0.0.1:" + p.boundPort())
                    .serialization(serialization).timeout(Duration.ofSeconds(5)).build());
            Voucher coupon = (Voucher) missing.coupon();
            BadRequestException e = assertThrows(BadRequestException.class, () -> s.redeem(coupon));
            // kryo, fst, java and fory name the class; hessian2 reads it as a map, and the argument check says so
            assertTrue(serialization.equals("hessian2") ? e.getMessage().contains("argument 1 was read as a"
                    + " java.util.HashMap, but the method takes a "
                    + Voucher.class.getName() + ": the consumer sent a class this provider does not have, which "
                    + serialization + " reads as a map of its fields. Deploy the jar that holds the consumer's class (a "
                    + Voucher.class.getName() + ") with the provider")
                    : e.getMessage().contains("the provider cannot load class " + MissingClasses.CLASS), e.getMessage());
            assertFalse(e.getMessage().contains("corrupt"), e.getMessage());
        }
    }

    /** A service returning a class only the provider has (its jar is newer than the consumer's). */
    public interface CouponService {
        Object latest();
    }

    @ParameterizedTest
    @ValueSource(strings = {"kryo", "fst", "java", "fory"})
    void classTheConsumerLacksIsNamedWithWhereToDeployIt(String serialization) throws Exception {
        Object coupon = missing.coupon();
        // a consumer of its own: fory remembers classes it wrote by name, and another test's consumer wrote a Coupon
        try (RpcRuntime p = RpcRuntime.builder().protocol(TestRuntimes.loopback().serialization(serialization)
                .allowPackage(MissingClasses.PACKAGE).build()).build();
             RpcRuntime consumer = freshConsumer()) {
            p.export(ServiceConfig.builder(CouponService.class, (CouponService) () -> coupon).build());
            CouponService s = consumer.refer(ReferenceConfig.builder(CouponService.class).url("127.0.0.1:" + p.boundPort())
                    .serialization(serialization).timeout(Duration.ofSeconds(5)).build());
            MissingClassException e = assertThrows(MissingClassException.class, s::latest);
            assertEquals(MissingClasses.CLASS, e.className());
            assertTrue(e.getMessage().contains("the consumer cannot load class " + MissingClasses.CLASS + ", which the"
                    + " provider returned (the allowlist accepts it, but it is not on the consumer's class path). Deploy the"
                    + " jar that holds " + MissingClasses.CLASS + " with the consumer"), e.getMessage());
        }
    }

    /** These two read a class they cannot load as a map of its fields (their engines' behaviour, kept). */
    @ParameterizedTest
    @ValueSource(strings = {"hessian2", "fastjson2"})
    void hessian2AndFastjson2ReadAClassTheyLackAsAMap(String serialization) throws Exception {
        Object back = sendCoupon(serialization);
        assertEquals(Map.of("code", "SPRING-10"), back);
    }
}
