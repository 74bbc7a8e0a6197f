package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.transport.Status;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a connection provably alive, on both sides. Sits after the {@link FrameDecoder} and an
 * {@code IdleStateHandler}:
 * <ul>
 *   <li>a heartbeat request (event frame, two-way) is answered at once with a heartbeat response;</li>
 *   <li>a heartbeat response fires {@link Event#PEER_ANSWERED} (the consumer's handshake);</li>
 *   <li>write-idle sends a heartbeat request (consumer only), reader-idle means the peer has been
 *       silent for too long: {@link Event#PEER_SILENT} is fired and the connection closed;</li>
 *   <li>on a consumer, a heartbeat request is also sent as soon as the connection is up: the
 *       connection is usable only once the provider answered it, because a frozen process's kernel
 *       still accepts TCP connections.</li>
 *   <li>a provider answers the first heartbeat of a connection with a body: the {@link Handshake}
 *       facts of its exported services; the consumer fires them as a {@link Handshake.Facts} event
 *       just before {@link Event#PEER_ANSWERED}.</li>
 * </ul>
 * Other frames, including {@link Status#GOING_AWAY}, {@link Status#CREDENTIAL} and
 * {@link Status#TLS_MISMATCH} events, pass on. One instance per channel.
 */
public final class HeartbeatHandler extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(HeartbeatHandler.class);

    /** User events fired down the pipeline. */
    public enum Event {
        /** The peer answered a heartbeat. */
        PEER_ANSWERED,
        /** The peer sent nothing within the silence limit; the connection is being closed. */
        PEER_SILENT
    }

    private final boolean consumer;
    private final long silenceMillis;
    private final ResponseWriter answers;
    private final Supplier<Map<String, Map<String, String>>> handshake;
    private boolean handshakeDone;
    private long nextPingId;

    /** A consumer's handler: sends heartbeats. */
    public static HeartbeatHandler consumer(long silenceMillis) {
        return new HeartbeatHandler(true, silenceMillis, null, null);
    }

    /**
     * A provider's handler: answers heartbeats through {@code answers}, behind the responses already
     * queued there, so an answered heartbeat proves that everything sent before it was answered.
     */
    public static HeartbeatHandler provider(long silenceMillis, ResponseWriter answers) {
        return new HeartbeatHandler(false, silenceMillis, answers, null);
    }

    /**
     * A provider's handler whose answer to a connection's first heartbeat carries {@code handshake}'s
     * facts (asked once per connection, on the event loop).
     */
    public static HeartbeatHandler provider(long silenceMillis, ResponseWriter answers,
            Supplier<Map<String, Map<String, String>>> handshake) {
        return new HeartbeatHandler(false, silenceMillis, answers, handshake);
    }

    private HeartbeatHandler(boolean consumer, long silenceMillis, ResponseWriter answers,
            Supplier<Map<String, Map<String, String>>> handshake) {
        this.consumer = consumer;
        this.silenceMillis = silenceMillis;
        this.answers = answers;
        this.handshake = handshake;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (consumer) {
            ping(ctx); // the handshake
        }
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof Frame f) || !f.isEvent() || f.status == Status.GOING_AWAY.code()
                || f.status == Status.CREDENTIAL.code() || f.status == Status.TLS_MISMATCH.code()) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (!f.isRequest()) {
            Handshake.Facts facts = handshakeDone ? null : facts(ctx, f);
            f.release();
            handshakeDone = true;
            if (facts != null) {
                ctx.fireUserEventTriggered(facts);
            }
            ctx.fireUserEventTriggered(Event.PEER_ANSWERED);
            return;
        }
        f.release();
        if (f.isTwoWay()) {
            if (answers != null) {
                Map<String, Map<String, String>> facts = null;
                if (!handshakeDone && handshake != null) {
                    facts = handshake.get();
                }
                handshakeDone = true;
                answers.heartbeatAnswer(f, facts);
            } else {
                ByteBuf pong = ctx.alloc().ioBuffer(Wire.HEADER_BYTES);
                Wire.writeHeader(pong, Wire.FLAG_EVENT, f.serializationId, Status.OK.code(), f.requestId, 0);
                ctx.writeAndFlush(pong, ctx.voidPromise());
            }
        }
    }

    /** The provider's handshake facts; a malformed body is logged and read as nothing said. */
    private static Handshake.Facts facts(ChannelHandlerContext ctx, Frame answer) {
        if (answer.body == null) {
            return new Handshake.Facts(Map.of());
        }
        try {
            return new Handshake.Facts(Handshake.read(answer.body.duplicate()));
        } catch (RuntimeException e) {
            log.warn("Provider {} sent a malformed handshake ({}); using this consumer's own settings",
                    ctx.channel().remoteAddress(), e.getMessage());
            return new Handshake.Facts(Map.of());
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (!(evt instanceof IdleStateEvent e)) {
            super.userEventTriggered(ctx, evt);
            return;
        }
        if (e.state() == IdleState.READER_IDLE) {
            if (consumer) {
                log.warn("Provider {} sent nothing for {} ms (the heartbeat misses); closing the connection and"
                        + " reconnecting", ctx.channel().remoteAddress(), silenceMillis);
            } else {
                log.info("No data from consumer {} within the heartbeat window ({} ms); closing its connection",
                        ctx.channel().remoteAddress(), silenceMillis);
            }
            ctx.fireUserEventTriggered(Event.PEER_SILENT);
            ctx.close();
        } else if (e.state() == IdleState.WRITER_IDLE && consumer) {
            ping(ctx);
        }
    }

    private void ping(ChannelHandlerContext ctx) {
        ByteBuf ping = ctx.alloc().ioBuffer(Wire.HEADER_BYTES);
        Wire.writeHeader(ping, (byte) (Wire.FLAG_REQUEST | Wire.FLAG_TWO_WAY | Wire.FLAG_EVENT), (byte) 0, (byte) 0,
                ++nextPingId, 0);
        ctx.writeAndFlush(ping, ctx.voidPromise());
    }
}
