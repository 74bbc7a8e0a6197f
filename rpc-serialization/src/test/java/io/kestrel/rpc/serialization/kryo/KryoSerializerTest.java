package io.kestrel.rpc.serialization.kryo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.serialization.fixture.AdType;
import io.kestrel.rpc.serialization.fixture.BidRequest;
import io.kestrel.rpc.serialization.fixture.Device;
import io.kestrel.rpc.serialization.fixture.Impression;
import io.kestrel.rpc.serialization.fixture.Money;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class KryoSerializerTest {
    private static final String FIXTURES = "io.kestrel.rpc.serialization.fixture";

    private static Serializer kryo(SerializationOptions options) {
        return Serializations.installed().byName("kryo").create(options);
    }

    private static SerializationOptions.Builder fixtureOptions() {
        return SerializationOptions.builder().allowlist(ClassAllowlist.withDefaults().allowPackage(FIXTURES));
    }

    private static byte[] write(Serializer s, Object value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        s.serialize(value, out);
        return out.toByteArray();
    }

    private static Object read(Serializer s, byte[] bytes) {
        return s.deserialize(new ByteArrayInputStream(bytes), Object.class);
    }

    @Test
    void classWithoutNoArgConstructorRoundTrips() {
        Serializer s = kryo(fixtureOptions().build());
        Money money = new Money(new BigDecimal("9.99"), "EUR");
        assertEquals(money, read(s, write(s, money)));
    }

    @Test
    void optimizerRegistrationMakesOutputSmaller() {
        Serializer plain = kryo(fixtureOptions().build());
        Serializer registered = kryo(fixtureOptions()
                .optimizer(() -> List.of(BidRequest.class, Impression.class, Device.class, AdType.class))
                .build());
        BidRequest request = BidRequest.sample();
        byte[] unregisteredBytes = write(plain, request);
        byte[] registeredBytes = write(registered, request);
        assertEquals(request, read(registered, registeredBytes));
        assertTrue(registeredBytes.length + 100 < unregisteredBytes.length,
                "registered " + registeredBytes.length + " bytes vs unregistered " + unregisteredBytes.length);
    }

    @Test
    void registeredClassesNeedNoAllowedPackage() {
        // the optimizer alone makes a class readable: SerializationOptions allowlists registered classes
        Serializer s = kryo(SerializationOptions.builder().registerClass(Money.class).build());
        Money money = new Money(BigDecimal.ONE, "USD");
        assertEquals(money, read(s, write(s, money)));
    }

    @Test
    void compatibleModeRoundTripsTheFixture() {
        Serializer s = kryo(fixtureOptions().compatible(true).build());
        assertEquals(BidRequest.sample(), read(s, write(s, BidRequest.sample())));
    }

    @Test
    void oneSerializerServesManyThreads() throws Exception {
        Serializer s = kryo(fixtureOptions().build());
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Callable<Boolean>> tasks = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                tasks.add(() -> {
                    for (int i = 0; i < 200; i++) {
                        if (!BidRequest.sample().equals(read(s, write(s, BidRequest.sample())))) {
                            return false;
                        }
                    }
                    return true;
                });
            }
            for (Future<Boolean> f : pool.invokeAll(tasks, 60, TimeUnit.SECONDS)) {
                assertTrue(f.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
