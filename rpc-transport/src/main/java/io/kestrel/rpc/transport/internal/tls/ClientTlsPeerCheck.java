package io.kestrel.rpc.transport.internal.tls;

import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.internal.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Just before a TLS consumer's {@code SslHandler}: if the provider answers the ClientHello with a
 * plaintext Kestrel frame (it does not use TLS), fails the connection with a
 * {@link TlsMismatchException} saying so, instead of leaving the TLS engine to report "not an
 * SSL/TLS record". Steps aside once the first bytes are anything else. One per connection.
 */
public final class ClientTlsPeerCheck extends ByteToMessageDecoder {
    private final String address;

    public ClientTlsPeerCheck(String address) {
        this.address = address;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (in.readableBytes() < 2) {
            return;
        }
        if (in.getShort(in.readerIndex()) != Wire.MAGIC) {
            ctx.pipeline().remove(this);
            return;
        }
        if (in.readableBytes() < Wire.HEADER_BYTES) {
            return;
        }
        int bodyLength = in.getInt(in.readerIndex() + Wire.LENGTH_OFFSET);
        byte status = in.getByte(in.readerIndex() + 5);
        if (status == Status.TLS_MISMATCH.code() && bodyLength > 0 && bodyLength <= 4096
                && in.readableBytes() < Wire.HEADER_BYTES + bodyLength) {
            return; // wait for the explanation
        }
        String explanation = null;
        if (status == Status.TLS_MISMATCH.code() && in.readableBytes() >= Wire.HEADER_BYTES + bodyLength) {
            explanation = MismatchNotice.read(in.slice(in.readerIndex() + Wire.HEADER_BYTES, bodyLength));
        }
        in.skipBytes(in.readableBytes());
        ctx.fireExceptionCaught(new TlsMismatchException(explanation != null ? explanation : "provider " + address
                + " answered in plaintext Kestrel RPC: it does not use TLS, but this consumer connects with TLS"));
        ctx.close();
    }
}
