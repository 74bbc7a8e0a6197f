package io.kestrel.rpc.transport.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.transport.TransportCounters;
import io.kestrel.rpc.transport.internal.stream.StreamFrames;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

/**
 * The stream frames pinned byte for byte (see {@link StreamFrames} and docs/streaming.md): the native header with
 * flag 0x20 (| 0x01 from the consumer), the stream id in the request id field, the operations in the status byte.
 * The serializer is the test's UTF-8 one (id 0x4d), so only the framework's bytes are pinned. The unary frames are
 * pinned unchanged by {@link GoldenFrameTest}.
 */
class StreamFrameGoldenTest {
    /** Compact DATA "hi" on stream 5 from the consumer: flags 61, 4-byte stream id, body length 2, the message. */
    static final String CONSUMER_DATA = "4b520161" + "00000005" + "00000002" + "6869";
    /** Compact DATA "hi" on stream 5 from the provider: flags 60. */
    static final String PROVIDER_DATA = "4b520160" + "00000005" + "00000002" + "6869";
    /** DATA "hi" on stream 2^32 (too large for the compact header) from the provider: flags 20, ops 01, ser 4d. */
    static final String FULL_DATA = "4b5201204d01000000010000000000000002" + "6869";
    /** HALF_CLOSE of stream 5: ops 02, no body. */
    static final String HALF_CLOSE = "4b5201214d02000000000000000500000000";
    /** CANCEL of stream 5 by the provider, reason "stop": ops 04, body varint 04 + "stop". */
    static final String CANCEL = "4b5201204d04000000000000000500000005" + "0473746f70";
    /** WINDOW of stream 5 from the consumer granting 64: ops 08, body 4-byte credits. */
    static final String WINDOW = "4b5201214d08000000000000000500000004" + "00000040";

    private static String hexOf(ByteBuf frame) {
        try {
            return ByteBufUtil.hexDump(frame);
        } finally {
            frame.release();
        }
    }

    @Test
    void streamFramesAreTheDocumentedBytes() {
        ByteBufAllocator alloc = ByteBufAllocator.DEFAULT;
        byte ser = TestSupport.UTF8.id();
        assertEquals(CONSUMER_DATA, hexOf(StreamFrames.data(alloc, true, TestSupport.UTF8, 5, "hi")));
        assertEquals(PROVIDER_DATA, hexOf(StreamFrames.data(alloc, false, TestSupport.UTF8, 5, "hi")));
        assertEquals(FULL_DATA, hexOf(StreamFrames.data(alloc, false, TestSupport.UTF8, 1L << 32, "hi")));
        assertEquals(HALF_CLOSE, hexOf(StreamFrames.halfClose(alloc, ser, 5)));
        assertEquals(CANCEL, hexOf(StreamFrames.cancel(alloc, false, ser, 5, "stop")));
        assertEquals(WINDOW, hexOf(StreamFrames.window(alloc, true, ser, 5, 64)));
    }

    @Test
    void aMessageCostsTwelveBytesOnTheWire() {
        for (long stream : new long[] {1, 0xFFFF_FFFFL}) {
            ByteBuf frame = StreamFrames.data(ByteBufAllocator.DEFAULT, false, TestSupport.UTF8, stream,
                    "0123456789abcdef");
            try {
                assertEquals(Wire.COMPACT_HEADER_BYTES + 16, frame.readableBytes(), "stream " + stream);
            } finally {
                frame.release();
            }
        }
    }

    @Test
    void theFrameDecoderReadsStreamFramesAsFramesOfTheirStream() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(1 << 20, new TransportCounters()));
        ch.writeInbound(io.netty.buffer.Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(CONSUMER_DATA + WINDOW
                + FULL_DATA)));
        Frame data = ch.readInbound();
        Frame window = ch.readInbound();
        Frame full = ch.readInbound();
        try {
            assertTrue(StreamFrames.isStream(data) && data.isRequest());
            assertEquals(5, data.requestId);
            assertEquals(StreamFrames.DATA, data.status);
            assertEquals("hi", data.body.toString(java.nio.charset.StandardCharsets.UTF_8));
            assertEquals(StreamFrames.WINDOW, window.status);
            assertEquals(64, window.body.getInt(window.body.readerIndex()));
            assertTrue(StreamFrames.isStream(full) && !full.isRequest());
            assertEquals(1L << 32, full.requestId);
            assertEquals(StreamFrames.DATA, full.status);
            assertEquals("hi", full.body.toString(java.nio.charset.StandardCharsets.UTF_8));
        } finally {
            data.release();
            window.release();
            full.release();
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void aCompactFrameIsReadAsItArrivesAndItsIdIsUnsigned() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(1 << 20, new TransportCounters()));
        byte[] bytes = ByteBufUtil.decodeHexDump("4b520160" + "fffffffe" + "00000002" + "6869");
        for (byte b : bytes) { // a byte at a time: the 12-byte header and the body wait for the rest
            ch.writeInbound(io.netty.buffer.Unpooled.wrappedBuffer(new byte[] {b}));
        }
        Frame data = ch.readInbound();
        try {
            assertEquals(0xFFFF_FFFEL, data.requestId);
            assertEquals("hi", data.body.toString(java.nio.charset.StandardCharsets.UTF_8));
        } finally {
            data.release();
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void theCompactFlagWithoutTheStreamFlagIsRefused() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(1 << 20, new TransportCounters()));
        // flags 0x41: compact on a request that is not a stream frame
        io.netty.handler.codec.DecoderException e = org.junit.jupiter.api.Assertions.assertThrows(
                io.netty.handler.codec.DecoderException.class, () -> ch.writeInbound(io.netty.buffer.Unpooled
                        .wrappedBuffer(ByteBufUtil.decodeHexDump("4b520141" + "00000005" + "00000002" + "6869"))));
        assertTrue(e.getMessage().contains("compact flag 0x40 goes with the stream flag"), e.getMessage());
        ch.finishAndReleaseAll();
    }
}
