package io.kestrel.rpc.observability.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.interceptor.CallInfo;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PerMethodTest {
    private static final ServiceKey GREETER = ServiceKey.parse("g/com.example.Greeter:1.0");

    private record Call(ServiceKey service, Method method, String serialization) implements CallInfo {
        @Override
        public Object[] arguments() {
            return new Object[0];
        }

        @Override
        public Map<String, String> requestAttachments() {
            return Map.of();
        }

        @Override
        public Map<String, String> responseAttachments() {
            return Map.of();
        }

        @Override
        public String peerAddress() {
            return null;
        }
    }

    private final AtomicInteger built = new AtomicInteger();
    private final PerMethod<String> names = new PerMethod<>(c -> {
        built.incrementAndGet();
        return c.service() + "#" + c.methodName() + "/" + c.serialization();
    });

    @Test
    void aValueIsBuiltOncePerServiceMethodAndSerializationAndFoundAgain() throws Exception {
        Method toString = Object.class.getMethod("toString");
        Method hashCode = Object.class.getMethod("hashCode");
        String first = names.of(new Call(GREETER, toString, "kryo"));
        assertEquals("g/com.example.Greeter:1.0#toString/kryo", first);
        // an equal (not the same) service key and serialization name find the same value
        assertSame(first, names.of(new Call(ServiceKey.parse("g/com.example.Greeter:1.0"), toString, new String("kryo"))));
        assertEquals(1, built.get());

        assertEquals("g/com.example.Greeter:1.0#toString/fory", names.of(new Call(GREETER, toString, "fory")));
        assertEquals("g/com.example.Greeter:2.0#toString/kryo",
                names.of(new Call(ServiceKey.parse("g/com.example.Greeter:2.0"), toString, "kryo")));
        assertEquals("g/com.example.Greeter:1.0#hashCode/null", names.of(new Call(GREETER, hashCode, null)));
        assertSame(names.of(new Call(GREETER, hashCode, null)), names.of(new Call(GREETER, hashCode, null)));
        assertEquals(4, built.get());
    }

    @Test
    void aMethodOfManyServicesKeepsTheRestInAMapAndBeyondTheBoundValuesAreNotKept() throws Exception {
        Method m = Object.class.getMethod("toString");
        for (int i = 0; i < PerMethod.MAX_ENTRIES; i++) {
            names.of(new Call(ServiceKey.parse("com.example.S" + i), m, "kryo"));
        }
        assertEquals(PerMethod.MAX_ENTRIES, built.get());
        // kept: the first few in the scanned array, the rest in the map
        assertEquals("com.example.S3#toString/kryo", names.of(new Call(ServiceKey.parse("com.example.S3"), m, "kryo")));
        assertEquals("com.example.S9999#toString/kryo",
                names.of(new Call(ServiceKey.parse("com.example.S9999"), m, "kryo")));
        assertEquals(PerMethod.MAX_ENTRIES, built.get());

        Call late = new Call(ServiceKey.parse("com.example.Late"), m, "kryo");
        String a = names.of(late);
        String b = names.of(late);
        assertEquals(a, b);
        assertNotSame(a, b, "kept beyond the bound");
        assertEquals(PerMethod.MAX_ENTRIES + 2, built.get());
    }
}
