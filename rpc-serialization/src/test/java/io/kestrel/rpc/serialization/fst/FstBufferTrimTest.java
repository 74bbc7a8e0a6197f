package io.kestrel.rpc.serialization.fst;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.serialization.internal.InputBuffer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import org.junit.jupiter.api.Test;

/** After a large call, the thread's fst output and input buffers are not kept at that size. */
class FstBufferTrimTest {
    @Test
    void perThreadBuffersAreTrimmedAfterALargeValue() {
        FstSerializer serializer = (FstSerializer) new FstSerialization().create(SerializationOptions.builder().build());
        byte[] mib = new byte[1024 * 1024];
        mib[54321] = 9;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        serializer.serialize(mib, out);
        assertTrue(serializer.retainedOutputBytes() <= InputBuffer.MAX_KEPT_BYTES, "output keeps " + serializer.retainedOutputBytes());
        byte[] back = (byte[]) serializer.deserialize(new ByteArrayInputStream(out.toByteArray()), byte[].class);
        assertArrayEquals(mib, back);
        assertTrue(InputBuffer.retainedBytes() <= InputBuffer.MAX_KEPT_BYTES, "thread keeps " + InputBuffer.retainedBytes());
    }
}
