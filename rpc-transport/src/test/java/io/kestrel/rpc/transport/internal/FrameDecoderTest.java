package io.kestrel.rpc.transport.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.transport.TransportCounters;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.CorruptedFrameException;
import org.junit.jupiter.api.Test;

class FrameDecoderTest {
    private static ByteBuf frame(long id, byte[] body) {
        ByteBuf b = Unpooled.buffer();
        Wire.writeHeader(b, (byte) 3, (byte) 8, (byte) 0, id, body.length);
        b.writeBytes(body);
        return b;
    }

    @Test
    void decodesFramesSplitAcrossReadsAndBackToBack() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(1024, new TransportCounters()));
        ByteBuf two = Unpooled.buffer();
        two.writeBytes(frame(1, new byte[] {1, 2, 3}));
        two.writeBytes(frame(2, new byte[] {4}));
        ch.writeInbound(two.readRetainedSlice(10));
        assertNull(ch.readInbound(), "half a header is not a frame");
        ch.writeInbound(two.readRetainedSlice(two.readableBytes()));
        two.release();
        Frame a = ch.readInbound();
        Frame b = ch.readInbound();
        assertEquals(1, a.requestId);
        assertEquals(3, a.body.readableBytes());
        assertEquals(2, b.requestId);
        assertEquals(4, b.body.readByte());
        assertTrue(a.isRequest() && a.isTwoWay() && !a.isEvent());
        a.release();
        b.release();
        assertFalse(ch.finish());
    }

    /**
     * The decoder reads the clock once per socket read: the frames one read completes carry its time (a provider's
     * deadlines count from it, a consumer's answer is checked against its deadline with it), and a frame completed by
     * a later read carries that read's time.
     */
    @Test
    void framesCarryTheTimeOfTheReadThatCompletedThem() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(1024, new TransportCounters()));
        ByteBuf third = frame(3, new byte[] {3, 3});
        ByteBuf first = Unpooled.buffer();
        first.writeBytes(frame(1, new byte[] {1}));
        first.writeBytes(frame(2, new byte[] {2}));
        first.writeBytes(third, 5); // the start of the third frame's header
        long before = System.nanoTime();
        ch.writeInbound(first);
        long after = System.nanoTime();
        Frame a = ch.readInbound();
        Frame b = ch.readInbound();
        assertNull(ch.readInbound(), "the third frame is not complete yet");
        assertTrue(a.receivedNanos - before >= 0 && after - a.receivedNanos >= 0, "read during writeInbound");
        assertEquals(a.receivedNanos, b.receivedNanos, "one read, one time");
        while (System.nanoTime() == after) {
            Thread.onSpinWait(); // the clock moves on before the next read
        }
        ch.writeInbound(third);
        Frame c = ch.readInbound();
        assertEquals(3, c.requestId);
        assertTrue(c.receivedNanos - after > 0, "the read that completed it came later");
        a.release();
        b.release();
        c.release();
        assertFalse(ch.finish());
    }

    @Test
    void decoderRejectsFrameLongerThanLimitFromTheHeaderAlone() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(16, new TransportCounters()));
        ByteBuf header = Unpooled.buffer();
        Wire.writeHeader(header, (byte) 3, (byte) 8, (byte) 0, 9, Integer.MAX_VALUE);
        ch.writeInbound(header);
        Frame f = ch.readInbound();
        assertTrue(f.oversized(), "body must not be buffered");
        assertEquals(Integer.MAX_VALUE, f.bodyLength);
        assertEquals(9, f.requestId);
        // the body bytes that follow are skipped, and the next frame decodes normally
        ch.writeInbound(Unpooled.wrappedBuffer(new byte[100]));
        assertNull(ch.readInbound());
        ch.finishAndReleaseAll();
    }

    @Test
    void oversizedBodyIsSkippedThenNextFrameDecodes() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(4, new TransportCounters()));
        ByteBuf in = Unpooled.buffer();
        in.writeBytes(frame(1, new byte[10]));
        in.writeBytes(frame(2, new byte[] {7}));
        ch.writeInbound(in);
        Frame big = ch.readInbound();
        Frame next = ch.readInbound();
        assertTrue(big.oversized());
        assertEquals(2, next.requestId);
        assertEquals(7, next.body.readByte());
        next.release();
        ch.finishAndReleaseAll();
    }

    @Test
    void wrongMagicIsACorruptedStream() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(1024, new TransportCounters()));
        CorruptedFrameException e = assertThrows(CorruptedFrameException.class,
                () -> ch.writeInbound(Unpooled.wrappedBuffer("GET / HTTP/1.1\r\n\r\n".getBytes())));
        assertTrue(e.getMessage().contains("bad magic 0x4745"), e.getMessage());
        ch.finishAndReleaseAll();
    }

    @Test
    void varintsAndStringsRoundTrip() {
        ByteBuf b = Unpooled.buffer();
        int[] values = {0, 1, 127, 128, 16_383, 16_384, Integer.MAX_VALUE};
        int[] sizes = {1, 1, 1, 2, 2, 3, 5}; // 7 bits per byte
        for (int i = 0; i < values.length; i++) {
            int before = b.writerIndex();
            Wire.writeVarint(b, values[i]);
            assertEquals(sizes[i], b.writerIndex() - before, "bytes written for " + values[i]);
            assertEquals(sizes[i], Wire.varintSize(values[i]), "varintSize(" + values[i] + ")");
        }
        Wire.writeString(b, "héllo ✓");
        for (int v : values) {
            assertEquals(v, Wire.readVarint(b));
        }
        assertEquals("héllo ✓", Wire.readString(b));
        b.release();
    }
}
