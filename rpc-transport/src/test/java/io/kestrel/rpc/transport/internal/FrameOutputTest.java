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
        assertFalse(composite.numComponents() < 3);
        // the header is written over the room afterwards, as ResponseEncoder.finish does
        ResponseEncoder.finish(frame, (byte) 1, io.kestrel.rpc.transport.Status.OK, 9L);
        assertEquals(expected.length, frame.getInt(Wire.LENGTH_OFFSET));
        assertArrayEquals(expected, ByteBufUtil.getBytes(frame, 18, expected.length));
        frame.release();
        assertEquals(0, first.refCnt(), "releasing the frame releases every buffer");
    }

    @Test
    void oneLargeWriteAfterASmallPrefixIsOneBufferNotAComposite() {
        byte[] value = new byte[50_000];
        new Random(3).nextBytes(value);
        ByteBuf first = alloc.ioBuffer(256);
        first.writerIndex(18); // header room
        FrameOutput out = new FrameOutput(alloc, first);
        out.write(ResponseEncoder.RESULT_VALUE);
        out.write(value, 0, value.length); // fory and kryo hand over the whole value in one write
        assertEquals(19 + value.length, out.size());
        ByteBuf frame = out.finish();
        assertFalse(frame instanceof CompositeByteBuf, "one buffer, not a composite of growing chunks: " + frame);
        assertEquals(0, first.refCnt(), "the small first buffer was given back once its prefix moved");
        assertEquals(0, frame.readerIndex());
        assertEquals(19 + value.length, frame.writerIndex());
        ResponseEncoder.finish(frame, (byte) 1, io.kestrel.rpc.transport.Status.OK, 9L);
        assertEquals(1 + value.length, frame.getInt(Wire.LENGTH_OFFSET));
        assertEquals(ResponseEncoder.RESULT_VALUE, frame.getByte(18));
        assertArrayEquals(value, ByteBufUtil.getBytes(frame, 19, value.length));
        frame.release();
    }

    @Test
    void aWriteLargerThanAChunkFillsWholeChunksInsteadOfGrowingSteps() {
        byte[] value = new byte[3 * FrameOutput.MAX_CHUNK_BYTES + 10];
        new Random(4).nextBytes(value);
        ByteBuf first = alloc.ioBuffer(256);
        FrameOutput out = new FrameOutput(alloc, first);
        out.write(value, 0, value.length);
        CompositeByteBuf frame = assertInstanceOf(CompositeByteBuf.class, out.finish());
        // the first buffer, then chunks of at most 1 MiB sized for the rest (not 4, 8, 16 KiB, ...)
        assertEquals(4, frame.numComponents(), frame.toString());
        assertArrayEquals(value, ByteBufUtil.getBytes(frame, 0, value.length));
        frame.release();
        assertEquals(0, first.refCnt());
    }

    @Test
    void aLargerPrefixIsNotCopiedButContinuedInANextBuffer() {
        ByteBuf first = alloc.ioBuffer(4096);
        FrameOutput out = new FrameOutput(alloc, first);
        out.write(new byte[FrameOutput.MAX_MOVED_BYTES + 1], 0, FrameOutput.MAX_MOVED_BYTES + 1);
        out.write(new byte[50_000], 0, 50_000);
        CompositeByteBuf frame = assertInstanceOf(CompositeByteBuf.class, out.finish());
        assertEquals(2, frame.numComponents(), "the first buffer and one sized for the rest: " + frame);
        assertEquals(FrameOutput.MAX_MOVED_BYTES + 1 + 50_000, frame.readableBytes());
        frame.release();
        assertEquals(0, first.refCnt());
    }

    @Test
    void responsesOfAKilobyteOrTwoAreOneBufferAndLargeOnesTooWhenWrittenWhole() {
        for (int chars : new int[] {10, 1_900, 50_000, 300_000}) {
            String value = "x".repeat(chars);
            ByteBuf frame = ResponseEncoder.value(alloc, TestSupport.UTF8, value);
            try {
                assertFalse(frame instanceof CompositeByteBuf, chars + " chars: " + frame);
                assertEquals(Wire.HEADER_BYTES + 1 + chars, frame.readableBytes());
                assertEquals(value, frame.toString(Wire.HEADER_BYTES + 1, chars, java.nio.charset.StandardCharsets.UTF_8));
            } finally {
                frame.release();
            }
        }
    }

    @Test
    void releaseAfterAFailedWriteFreesEveryBuffer() {
        ByteBuf first = alloc.ioBuffer(256);
        FrameOutput out = new FrameOutput(alloc, first);
        out.write(new byte[20_000], 0, 20_000);
        out.write(new byte[2 * FrameOutput.MAX_CHUNK_BYTES], 0, 2 * FrameOutput.MAX_CHUNK_BYTES);
        out.release();
        assertEquals(0, first.refCnt());
    }
}
