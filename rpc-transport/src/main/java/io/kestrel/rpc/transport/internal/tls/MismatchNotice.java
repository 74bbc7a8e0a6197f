package io.kestrel.rpc.transport.internal.tls;

import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.internal.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.CorruptedFrameException;

/**
 * The plaintext frame a provider sends, before closing, to a consumer whose first bytes show it
 * expects the other kind of connection: an event frame with status {@link Status#TLS_MISMATCH} and
 * the explanation as its body (varint length, UTF-8). A plaintext consumer reads it as a frame; a
 * TLS consumer reads it before its TLS engine does ({@link ClientTlsPeerCheck}).
 */
final class MismatchNotice {
    /** Longest explanation read from a provider. */
    private static final int MAX_MESSAGE_BYTES = 1024;

    private MismatchNotice() {
    }

    /** Writes the notice in plaintext and closes the connection once it is on the wire. */
    static void sendAndClose(ChannelHandlerContext ctx, String message) {
        ByteBuf body = ctx.alloc().buffer();
        Wire.writeString(body, message);
        ByteBuf frame = ctx.alloc().buffer(Wire.HEADER_BYTES + body.readableBytes());
        Wire.writeHeader(frame, Wire.FLAG_EVENT, (byte) 0, Status.TLS_MISMATCH.code(), 0, body.readableBytes());
        frame.writeBytes(body);
        body.release();
        ctx.writeAndFlush(frame).addListener(ChannelFutureListener.CLOSE);
    }

    /** The explanation in a notice's body, or null when the body cannot be read. */
    static String read(ByteBuf body) {
        try {
            return Wire.readString(body, MAX_MESSAGE_BYTES);
        } catch (CorruptedFrameException e) {
            return null;
        }
    }
}
