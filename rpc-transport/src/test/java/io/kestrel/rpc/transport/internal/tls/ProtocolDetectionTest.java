package io.kestrel.rpc.transport.internal.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.internal.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The first-bytes handlers alone on {@link EmbeddedChannel}: the plaintext provider's
 * {@link ServerProtocolDetector} and the TLS consumer's {@link ClientTlsPeerCheck}.
 */
class ProtocolDetectionTest {
    private static final byte[] CLIENT_HELLO_START = {0x16, 0x03, 0x01, 0x00, 0x05, 0x01, 0x00, 0x00, 0x01, 0x03};

    private static ByteBuf kestrelHeader() {
        ByteBuf b = Unpooled.buffer();
        Wire.writeHeader(b, (byte) (Wire.FLAG_REQUEST | Wire.FLAG_TWO_WAY | Wire.FLAG_EVENT), (byte) 0, (byte) 0, 1, 0);
        return b;
    }

    @Test
    void aPlaintextPortPassesKestrelBytesOnUntouchedAndStepsAside() {
        EmbeddedChannel ch = new EmbeddedChannel(new ServerProtocolDetector(null));
        ByteBuf header = kestrelHeader();
        ch.writeInbound(header.retainedSlice(0, 1)); // one byte is not enough to decide
        assertNull(ch.readInbound());
        ch.writeInbound(header.retainedSlice(1, header.readableBytes() - 1));
        ByteBuf passed = ch.readInbound();
        assertEquals(Wire.HEADER_BYTES, passed.readableBytes());
        assertEquals(Wire.MAGIC, passed.getShort(0));
        passed.release();
        header.release();
        assertNull(ch.pipeline().get(ServerProtocolDetector.class));
        assertTrue(ch.isOpen());
        ch.finishAndReleaseAll();
    }

    @Test
    void aPlaintextPortAnswersATlsHelloWithANoticeAndCloses() {
        EmbeddedChannel ch = new EmbeddedChannel(new ServerProtocolDetector(null));
        ch.writeInbound(Unpooled.wrappedBuffer(CLIENT_HELLO_START));
        ByteBuf notice = ch.readOutbound();
        assertEquals(Wire.MAGIC, notice.readShort());
        notice.skipBytes(3);
        assertEquals(Status.TLS_MISMATCH.code(), notice.readByte());
        notice.skipBytes(8);
        int length = notice.readInt();
        String text = Wire.readString(notice.readSlice(length));
        assertTrue(text.contains("does not use TLS, but this consumer connects with TLS"), text);
        notice.release();
        assertFalse(ch.isOpen());
        assertNull(ch.readInbound());
        ch.finishAndReleaseAll();
    }

    @Test
    void aTlsConsumerRecognisesAPlaintextProvidersNoticeAndQuotesIt() {
        AtomicReference<Throwable> raised = new AtomicReference<>();
        EmbeddedChannel ch = new EmbeddedChannel(new ClientTlsPeerCheck("10.0.0.1:20880"),
                new ChannelInboundHandlerAdapter() {
                    @Override
                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                        raised.set(cause);
                    }
                });
        ByteBuf body = Unpooled.buffer();
        Wire.writeString(body, "provider 10.0.0.1:20880 does not use TLS");
        ByteBuf frame = Unpooled.buffer();
        Wire.writeHeader(frame, Wire.FLAG_EVENT, (byte) 0, Status.TLS_MISMATCH.code(), 0, body.readableBytes());
        frame.writeBytes(body);
        body.release();
        ch.writeInbound(frame.retainedSlice(0, 20)); // the header and part of the body: waits for the rest
        assertNull(raised.get());
        ch.writeInbound(frame.retainedSlice(20, frame.readableBytes() - 20));
        frame.release();
        TlsMismatchException e = assertInstanceOf(TlsMismatchException.class, raised.get());
        assertEquals("provider 10.0.0.1:20880 does not use TLS", e.getMessage());
        assertFalse(ch.isOpen());
        ch.finishAndReleaseAll();
    }

    @Test
    void aTlsConsumerPassesTlsRecordsToItsEngine() {
        EmbeddedChannel ch = new EmbeddedChannel(new ClientTlsPeerCheck("10.0.0.1:20880"));
        ch.writeInbound(Unpooled.wrappedBuffer("\u0016\u0003\u0003".getBytes(StandardCharsets.ISO_8859_1)));
        ByteBuf passed = ch.readInbound();
        assertEquals(0x16, passed.getUnsignedByte(0));
        passed.release();
        assertNull(ch.pipeline().get(ClientTlsPeerCheck.class));
        ch.finishAndReleaseAll();
    }
}
