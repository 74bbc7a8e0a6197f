package io.kestrel.rpc.perf.soak.attack;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RawFramesTest {

    @Test
    void aDefiningRequestFollowsTheReadmesLayout() {
        byte[] body = RawFrames.requestBody(0, "a.B#m(int)", 300, "xy", new byte[] {7}, new byte[] {8, 9});
        byte[] expected = {0, 10, 'a', '.', 'B', '#', 'm', '(', 'i', 'n', 't', ')', (byte) 0xAC, 0x02, 1, 3, 'p', 'a',
            'd', 2, 'x', 'y', 1, 7, 8, 9};
        assertArrayEquals(expected, body);
        ByteBuffer frame = ByteBuffer.wrap(RawFrames.request((byte) 8, 5, true, body));
        assertEquals(0x4B52, frame.getShort());
        assertEquals(1, frame.get());
        assertEquals(0x01 | 0x02 | 0x08, frame.get());
        assertEquals(8, frame.get());
        assertEquals(0, frame.get());
        assertEquals(5, frame.getLong());
        assertEquals(body.length, frame.getInt());
    }

    @Test
    void answersKeepTheMessageOfErrorsOnly() throws Exception {
        byte[] message = "busy".getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(2 * 18 + message.length + 3);
        b.putShort((short) 0x4B52).put((byte) 1).put((byte) 0).put((byte) 8).put((byte) 100).putLong(9)
                .putInt(message.length).put(message);
        b.putShort((short) 0x4B52).put((byte) 1).put((byte) 0).put((byte) 8).put((byte) 20).putLong(10).putInt(3)
                .put(new byte[3]);
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(b.array()));
        assertEquals(new RawFrames.Answer(0, (byte) 100, 9, "busy"), RawFrames.read(in));
        assertEquals(new RawFrames.Answer(0, (byte) 20, 10, null), RawFrames.read(in));
    }
}
