package io.kestrel.rpc.serialization.fory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ClassNotAllowedException;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.serialization.fixture.AdType;
import io.kestrel.rpc.serialization.fixture.BidRequest;
import io.kestrel.rpc.serialization.fixture.Device;
import io.kestrel.rpc.serialization.fixture.Impression;
import io.kestrel.rpc.serialization.fixture.Node;
import io.kestrel.rpc.serialization.fixture.QuoteRejectedException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Fory-specific behaviour. The surefire execution {@code fory-without-opens} runs this class in a
 * JVM without any {@code --add-opens} flag (the default execution has fst's flags), which
 * {@link #runsWithoutAddOpens} checks.
 */
class ForySerializerTest {
    private static final String FIXTURE = "io.kestrel.rpc.serialization.fixture";

    private static Serializer fory(boolean compatible, Class<?>... registered) {
        SerializationOptions.Builder b = SerializationOptions.builder()
                .allowlist(ClassAllowlist.withDefaults().allowPackage(FIXTURE)).compatible(compatible);
        for (Class<?> c : registered) {
            b.registerClass(c);
        }
        return new ForySerialization().create(b.build());
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
    void runsWithoutAddOpens() {
        if (Boolean.getBoolean("kestrel.test.noOpens")) {
            assertFalse(Object.class.getModule().isOpen("java.lang", getClass().getModule()),
                    "this execution is meant to run without --add-opens");
        }
        for (boolean compatible : new boolean[] {false, true}) {
            Serializer s = fory(compatible);
            assertEquals(BidRequest.sample(), read(s, write(s, BidRequest.sample())));
            QuoteRejectedException q = assertInstanceOf(QuoteRejectedException.class,
                    read(s, write(s, new QuoteRejectedException("below floor", 3))));
            assertEquals("below floor", q.getMessage());
            assertEquals(3, q.reasonCode());
            Instant now = Instant.parse("2025-01-02T03:04:05.123456789Z");
            assertEquals(now, read(s, write(s, now)));
            assertEquals(new BigDecimal("1E-30"), read(s, write(s, new BigDecimal("1E-30"))));
        }
    }

    @Test
    void registeredClassesAreWrittenAsIdsAndNeedTheSameOrderOnBothSides() {
        Class<?>[] order = {BidRequest.class, Impression.class, Device.class, AdType.class};
        Serializer registered = fory(false, order);
        Serializer unregistered = fory(false);
        byte[] small = write(registered, BidRequest.sample());
        byte[] large = write(unregistered, BidRequest.sample());
        assertTrue(small.length < large.length, small.length + " vs " + large.length);
        assertEquals(BidRequest.sample(), read(fory(false, order), small));
    }

    @Test
    void compatibleModeRoundTripsCyclesAndSharedReferences() {
        Serializer s = fory(true);
        Node a = new Node("a");
        Node b = new Node("b");
        a.next = b;
        b.next = a;
        a.children.add(b);
        Node back = (Node) read(s, write(s, a));
        assertSame(back, back.next.next);
        assertSame(back.next, back.children.get(0));
    }

    @Test
    void writingAClassOutsideTheAllowlistFailsOnTheWritersSide() {
        Serializer s = new ForySerialization().create(SerializationOptions.builder().build());
        ClassNotAllowedException e = assertThrows(ClassNotAllowedException.class, () -> write(s, new Node("x")));
        assertTrue(e.getMessage().contains(Node.class.getName()), e.getMessage());
    }

    @Test
    void oneSerializerServesManyThreads() throws Exception {
        Serializer s = fory(true, BidRequest.class);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                results.add(pool.submit(() -> {
                    for (int i = 0; i < 500; i++) {
                        if (!BidRequest.sample().equals(read(s, write(s, BidRequest.sample())))) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> f : results) {
                assertTrue(f.get(60, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
