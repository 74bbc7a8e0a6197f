package io.kestrel.rpc.serialization.kryo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.serialization.internal.InputBuffer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import org.junit.jupiter.api.Test;

/** After a large call, neither the pool's engines nor the thread keep a multi-MB buffer. */
class KryoBufferTrimTest {
    @Test
    void pooledBuffersAreTrimmedAfterALargeValue() {
        KryoSerializer serializer = new KryoSerializer(SerializationOptions.builder().build());
        byte[] mib = new byte[1024 * 1024];
        mib[12345] = 7;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        serializer.serialize(mib, out);
        byte[] back = (byte[]) serializer.deserialize(new ByteArrayInputStream(out.toByteArray()), byte[].class);
        assertArrayEquals(mib, back);
        long pooled = serializer.pooledBufferBytes();
        assertTrue(pooled <= 2L * KryoSerializer.MAX_POOLED_BUFFER_BYTES, "pool keeps " + pooled + " bytes of buffers");
        assertTrue(InputBuffer.retainedBytes() <= InputBuffer.MAX_KEPT_BYTES, "thread keeps " + InputBuffer.retainedBytes());
    }
}
