package io.kestrel.rpc.transport.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FrameOutputTest {
    private final ByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;

    @Test
    void aValueThatFitsStaysInTheFirstBuffer() {
        ByteBuf first = alloc.ioBuffer(256);
        FrameOutput out = new FrameOutput(alloc, first);
        out.write(new byte[200], 0, 200);
        out.write(7);
        ByteBuf frame = out.finish();
        assertSame(first, frame);
        assertEquals(201, frame.readableBytes());
        assertEquals(256, first.capacity(), "not grown");
        frame.release();
    }

    @Test
    void aLargeValueBecomesACompositeOfBuffersWithTheSameBytesAndNoneIsGrown() {
        byte[] expected = new byte[300_000];
        new Random(1).nextBytes(expected);
        ByteBuf first = alloc.ioBuffer(256);
        first.writerIndex(18); // header room, as the encoders leave it
        FrameOutput out = new FrameOutput(alloc, first);
        Random sizes = new Random(2);
        for (int i = 0; i < expected.length;) {
            if (sizes.nextInt(10) == 0) {
                out.write(expected[i++]);
            } else {
                int n = Math.min(expected.length - i, 1 + sizes.nextInt(5000));
                out.write(expected, i, n);
                i += n;
            }
        }
        assertEquals(18 + expected.length, out.size());
        ByteBuf frame = out.finish();
        CompositeByteBuf composite = assertInstanceOf(CompositeByteBuf.class, frame);
        assertEquals(256, first.capacity(), "the first buffer was not grown");
        assertFalse(composite.numComponents() < 3);
        // the header is written over the room afterwards, as ResponseEncoder.finish does
        ResponseEncoder.finish(frame, (byte) 1, io.kestrel.rpc.transport.Status.OK, 9L);
        assertEquals(expected.length, frame.getInt(Wire.LENGTH_OFFSET));
        assertArrayEquals(expected, ByteBufUtil.getBytes(frame, 18, expected.length));
        frame.release();
        assertEquals(0, first.refCnt(), "releasing the frame releases every buffer");
    }

    @Test
    void releaseAfterAFailedWriteFreesEveryBuffer() {
        ByteBuf first = alloc.ioBuffer(256);
        FrameOutput out = new FrameOutput(alloc, first);
        out.write(new byte[20_000], 0, 20_000);
        out.release();
        assertEquals(0, first.refCnt());
    }
}
