package io.kestrel.rpc.transport.internal.tls;

import io.kestrel.rpc.transport.internal.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * First on a provider's pipeline: looks at a new connection's first bytes and decides what it is
 * before anything else reads them, then steps aside.
 * <ul>
 *   <li>On a TLS port: a TLS record (0x16, a handshake) gets the {@link SslHandler} in this place;
 *       a Kestrel frame ("KR") from a plaintext consumer is answered, in plaintext, with a
 *       {@link io.kestrel.rpc.transport.Status#TLS_MISMATCH} notice saying this port requires TLS,
 *       and closed; anything else is closed. The whole handshake, from the accept on, must end
 *       within the handshake timeout, so a client that connects and sends nothing, or stalls in
 *       the handshake, is disconnected.</li>
 *   <li>On a plaintext port: a TLS ClientHello is answered with a notice saying this port does not
 *       use TLS, and closed; anything else passes on untouched.</li>
 * </ul>
 * One per connection.
 */
public final class ServerProtocolDetector extends ByteToMessageDecoder {
    private static final Logger log = LoggerFactory.getLogger(ServerProtocolDetector.class);
    /** First byte of a TLS handshake record. */
    private static final int TLS_HANDSHAKE = 0x16;
    /** Major version byte of every TLS record (SSL 3.0 .. TLS 1.3). */
    private static final int TLS_MAJOR = 0x03;

    private final TlsContext tls;
    private ScheduledFuture<?> deadline;

    /** @param tls the port's TLS, or null for a plaintext port */
    public ServerProtocolDetector(TlsContext tls) {
        this.tls = tls;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (tls != null) {
            long timeoutMillis = tls.config().handshakeTimeout().toMillis();
            deadline = ctx.executor().schedule(() -> {
                log.info("Closing connection from {}: no TLS handshake completed within {} ms"
                        + " (tls-handshake-timeout)", ctx.channel().remoteAddress(), timeoutMillis);
                ctx.close();
            }, timeoutMillis, TimeUnit.MILLISECONDS);
        }
        super.channelActive(ctx);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (in.readableBytes() < 2) {
            return;
        }
        int first = in.getUnsignedByte(in.readerIndex());
        int second = in.getUnsignedByte(in.readerIndex() + 1);
        boolean tlsRecord = first == TLS_HANDSHAKE && second == TLS_MAJOR;
        boolean kestrel = in.getShort(in.readerIndex()) == Wire.MAGIC;
        String local = ctx.channel().localAddress() instanceof InetSocketAddress a
                ? a.getHostString() + ":" + a.getPort() : String.valueOf(ctx.channel().localAddress());
        if (tls == null) {
            if (tlsRecord) {
                in.skipBytes(in.readableBytes());
                log.info("TLS ClientHello from {} on plaintext port {}: the consumer has TLS configured, this"
                        + " provider does not; closing", ctx.channel().remoteAddress(), local);
                MismatchNotice.sendAndClose(ctx, "provider " + local + " does not use TLS, but this consumer"
                        + " connects with TLS: remove the consumer's tls-* settings for it, or configure TLS on the"
                        + " provider's protocol (tls-cert, tls-key)");
                return;
            }
            ctx.pipeline().remove(this);
            return;
        }
        if (tlsRecord) {
            SslHandler ssl = tls.newServerHandler(ctx.alloc());
            ScheduledFuture<?> d = deadline;
            if (d != null) {
                ssl.handshakeFuture().addListener(f -> d.cancel(false));
            }
            ctx.pipeline().replace(this, "tls", ssl);
            return;
        }
        in.skipBytes(in.readableBytes());
        cancelDeadline();
        if (kestrel) {
            log.info("Plaintext Kestrel RPC from {} on TLS port {}: the consumer has no TLS configured; closing",
                    ctx.channel().remoteAddress(), local);
            MismatchNotice.sendAndClose(ctx, "provider " + local + " requires TLS, but this consumer connects in"
                    + " plaintext: configure TLS on the reference or runtime (tls-trust with the CA that signed the"
                    + " provider's certificate)");
        } else {
            log.info("Closing connection from {} on TLS port {}: its first bytes are neither TLS nor Kestrel RPC",
                    ctx.channel().remoteAddress(), local);
            ctx.close();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancelDeadline();
        super.channelInactive(ctx);
    }

    private void cancelDeadline() {
        if (deadline != null) {
            deadline.cancel(false);
        }
    }
}
