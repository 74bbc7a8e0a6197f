package io.kestrel.rpc.transport.internal.tls;

import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.internal.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.nio.charset.StandardCharsets;

/**
 * A consumer's credential, sent once per connection as its first frame: a one-way event with status
 * {@link Status#CREDENTIAL} whose body is the token (UTF-8). It sits before the heartbeat handler, so
 * it is written before the handshake heartbeat and every call; with TLS the engine holds it until
 * the handshake is done, so it never travels in clear on a TLS connection. Bound
 * ({@link BoundToken}), the body is a proof made for this connection's provider instead of the token. One per
 * connection.
 */
public final class CredentialSender extends ChannelInboundHandlerAdapter {
    private final String token;
    private final boolean bind;

    /** @param bind send a proof bound to the provider instead of the token ({@link BoundToken}) */
    public CredentialSender(String token, boolean bind) {
        this.token = token;
        this.bind = bind;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        String token = bind ? BoundToken.proof(this.token, ctx.channel().remoteAddress()) : this.token;
        int length = ByteBufUtil.utf8Bytes(token);
        ByteBuf frame = ctx.alloc().buffer(Wire.HEADER_BYTES + length);
        Wire.writeHeader(frame, (byte) (Wire.FLAG_REQUEST | Wire.FLAG_EVENT), (byte) 0, Status.CREDENTIAL.code(), 0,
                length);
        frame.writeCharSequence(token, StandardCharsets.UTF_8);
        ctx.write(frame, ctx.voidPromise()); // flushed with the handshake heartbeat that follows
        super.channelActive(ctx);
        ctx.pipeline().remove(this);
    }
}
