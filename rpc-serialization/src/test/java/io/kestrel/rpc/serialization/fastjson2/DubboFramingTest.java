package io.kestrel.rpc.serialization.fastjson2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.serialization.DecodeBudget;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** fastjson2's sequence form, Apache Dubbo's framing: a 4-byte big-endian length before each JSONB value. */
class DubboFramingTest {
    private final Serializer serializer = new Fastjson2Serialization().create(SerializationOptions.builder().build());

    private byte[] write(Object... values) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        serializer.writeSequence(out, w -> {
            for (Object v : values) {
                w.write(v);
            }
            return null;
        });
        return out.toByteArray();
    }

    @Test
    void eachValueIsItsLengthThenItsJsonbBytes() {
        byte[] bytes = write("2.0.2", 42);
        ByteBuffer b = ByteBuffer.wrap(bytes);
        int first = b.getInt();
        assertEquals(1 + "2.0.2".length(), first, "an ASCII string of 5: one type byte and 5 characters");
        b.position(b.position() + first);
        int second = b.getInt();
        assertEquals(b.remaining(), second);
        assertEquals(4 + first + 4 + second, bytes.length);
    }

    @Test
    void valuesRoundTripInOrderUntilTheEnd() {
        Map<String, String> attachments = new HashMap<>(Map.of("tenant", "acme"));
        byte[] bytes = write("hello", 7, null, new int[] {1, 2}, attachments);
        Object[] read = serializer.readSequence(new ByteArrayInputStream(bytes), DecodeBudget.of(serializer.decodeLimits()),
                r -> {
                    Object[] v = {r.read(String.class), r.read(int.class), r.read(Object.class), r.read(int[].class),
                        r.read(Map.class), r.atEnd()};
                    return v;
                });
        assertEquals("hello", read[0]);
        assertEquals(7, read[1]);
        assertEquals(null, read[2]);
        assertArrayEquals(new int[] {1, 2}, (int[]) read[3]);
        assertEquals(attachments, read[4]);
        assertEquals(true, read[5]);
    }

    @Test
    void aLengthBeyondTheBodyIsRefusedNamingBoth() {
        byte[] bytes = write("hello");
        byte[] lying = Arrays.copyOf(bytes, bytes.length);
        ByteBuffer.wrap(lying).putInt(1 << 20);
        SerializationException e = assertThrows(SerializationException.class, () -> serializer.readSequence(
                new ByteArrayInputStream(lying), DecodeBudget.of(serializer.decodeLimits()), r -> r.read(String.class)));
        assertTrue(e.getMessage().contains("claims 1048576 bytes, but " + (bytes.length - 4) + " are left"),
                e.getMessage());
    }
}
