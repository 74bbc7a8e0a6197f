package io.kestrel.rpc.serialization.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class InputBufferTest {
    @Test
    void aLargeValueIsReadWithoutTheThreadKeepingItsBuffer() throws IOException {
        byte[] big = new byte[1024 * 1024];
        new Random(1).nextBytes(big);
        InputBuffer b = InputBuffer.readAll(new ByteArrayInputStream(big));
        assertArrayEquals(big, Arrays.copyOf(b.bytes(), b.length()));
        assertTrue(InputBuffer.retainedBytes() <= InputBuffer.MAX_KEPT_BYTES, "kept " + InputBuffer.retainedBytes());
    }

    @Test
    void aLargeValueOfUnknownLengthIsNotKeptEither() throws IOException {
        byte[] big = new byte[3 * 1024 * 1024 + 7];
        new Random(2).nextBytes(big);
        InputBuffer b = InputBuffer.readAll(new FilterInputStream(new ByteArrayInputStream(big)) {
            @Override
            public int available() {
                return 0; // a stream that does not say how much it holds
            }
        });
        assertEquals(big.length, b.length());
        assertArrayEquals(big, Arrays.copyOf(b.bytes(), b.length()));
        assertTrue(InputBuffer.retainedBytes() <= InputBuffer.MAX_KEPT_BYTES, "kept " + InputBuffer.retainedBytes());
    }

    @Test
    void smallValuesReuseTheThreadsBuffer() throws IOException {
        InputBuffer first = InputBuffer.readAll(new ByteArrayInputStream(new byte[100]));
        InputBuffer second = InputBuffer.readAll(new ByteArrayInputStream(new byte[200]));
        assertTrue(first == second);
        assertEquals(200, second.length());
    }
}
