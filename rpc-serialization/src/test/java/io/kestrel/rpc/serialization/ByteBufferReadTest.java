package io.kestrel.rpc.serialization;

import static io.kestrel.rpc.serialization.SerializationTestSupport.create;
import static io.kestrel.rpc.serialization.SerializationTestSupport.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.serialization.DecodeBudget;
import io.kestrel.rpc.api.serialization.Serialization;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.serialization.fixture.BidRequest;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Serializer#deserialize(ByteBuffer, Class, DecodeBudget)}, the form the transport calls with
 * the frame's own memory: every serializer reads a value from a heap buffer (at an offset inside a
 * larger array) and from a direct buffer, small and large, and refuses a truncated one.
 */
class ByteBufferReadTest {
    /** 200,000 characters, Latin-1 and beyond, so the value spans many of the transport's buffers. */
    static final String LARGE = largeText();

    static Stream<Serialization> all() {
        return SerializationTestSupport.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void readsAValueFromAHeapBufferInPlaceAndFromADirectBuffer(Serialization s) {
        Serializer serializer = create(s);
        for (Object value : new Object[] {BidRequest.sample(), LARGE, 42L, true}) {
            byte[] bytes = write(serializer, value);
            assertEquals(value, read(serializer, heapAtOffset(bytes), value.getClass()), s.name() + " heap");
            assertEquals(value, read(serializer, direct(bytes), value.getClass()), s.name() + " direct");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void aTruncatedValueFailsWithASerializationException(Serialization s) {
        Serializer serializer = create(s);
        byte[] bytes = write(serializer, LARGE);
        byte[] cut = Arrays.copyOf(bytes, bytes.length / 2);
        assertThrows(SerializationException.class, () -> read(serializer, heapAtOffset(cut), String.class));
        assertThrows(SerializationException.class, () -> read(serializer, direct(cut), String.class));
    }

    private static Object read(Serializer serializer, ByteBuffer in, Class<?> type) {
        return serializer.deserialize(in, type, DecodeBudget.of(serializer.decodeLimits()));
    }

    /** The bytes in the middle of a larger array, junk around them: only position..limit may be read. */
    private static ByteBuffer heapAtOffset(byte[] bytes) {
        byte[] array = new byte[bytes.length + 64];
        Arrays.fill(array, (byte) 0x7F);
        System.arraycopy(bytes, 0, array, 32, bytes.length);
        return ByteBuffer.wrap(array, 32, bytes.length).slice();
    }

    private static ByteBuffer direct(byte[] bytes) {
        ByteBuffer b = ByteBuffer.allocateDirect(bytes.length + 16);
        b.position(8);
        b.put(bytes);
        b.flip();
        b.position(8);
        return b;
    }

    private static String largeText() {
        StringBuilder b = new StringBuilder(200_000);
        for (int i = 0; b.length() < 200_000; i++) {
            b.append("value ").append(i).append(i % 7 == 0 ? " \u00e9\u4e2d " : " ");
        }
        return b.substring(0, 200_000);
    }
}
