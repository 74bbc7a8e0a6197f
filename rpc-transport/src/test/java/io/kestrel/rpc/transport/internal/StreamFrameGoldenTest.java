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
    /** DATA "hi" on stream 5 from the consumer: flags 21, ops 01, body length 2, the message bytes. */
    static final String CONSUMER_DATA = "4b5201214d01000000000000000500000002" + "6869";
    /** DATA "hi" on stream 5 from the provider: flags 20. */
    static final String PROVIDER_DATA = "4b5201204d01000000000000000500000002" + "6869";
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
        assertEquals(HALF_CLOSE, hexOf(StreamFrames.halfClose(alloc, ser, 5)));
        assertEquals(CANCEL, hexOf(StreamFrames.cancel(alloc, false, ser, 5, "stop")));
        assertEquals(WINDOW, hexOf(StreamFrames.window(alloc, true, ser, 5, 64)));
    }

    @Test
    void aMessageCostsTheEighteenByteHeaderOnTheWire() {
        ByteBuf frame = StreamFrames.data(ByteBufAllocator.DEFAULT, false, TestSupport.UTF8, 1, "0123456789abcdef");
        try {
            assertEquals(Wire.HEADER_BYTES + 16, frame.readableBytes());
        } finally {
            frame.release();
        }
    }

    @Test
    void theFrameDecoderReadsStreamFramesAsFramesOfTheirStream() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(1 << 20, new TransportCounters()));
        ch.writeInbound(io.netty.buffer.Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(CONSUMER_DATA + WINDOW)));
        Frame data = ch.readInbound();
        Frame window = ch.readInbound();
        try {
            assertTrue(StreamFrames.isStream(data) && data.isRequest());
            assertEquals(5, data.requestId);
            assertEquals(StreamFrames.DATA, data.status);
            assertEquals("hi", data.body.toString(java.nio.charset.StandardCharsets.UTF_8));
            assertEquals(StreamFrames.WINDOW, window.status);
            assertEquals(64, window.body.getInt(window.body.readerIndex()));
        } finally {
            data.release();
            window.release();
            ch.finishAndReleaseAll();
        }
    }
}
