package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.transport.Status;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
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
 *   <li>the consumer's first heartbeat, and a later one when it wants another service's facts, carry a
 *       {@link Handshake} query naming services; the provider answers with the facts it tells this
 *       caller (identity is established by then: the credential and TLS come first); the consumer fires
 *       them as a {@link Handshake.Facts} event, the first answer's just before {@link Event#PEER_ANSWERED}.</li>
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
    private final Function<Set<String>, Map<String, Map<String, String>>> handshake;
    private final Supplier<Set<String>> wanted;
    /** Consumer: heartbeat id to the services its query named, until answered. */
    private final Map<Long, Set<String>> queries = new HashMap<>();
    /** Consumer: services asked for on this channel. */
    private final Set<String> asked = new HashSet<>();
    private ChannelHandlerContext ctx;
    private boolean handshakeDone;
    private long nextPingId;

    /** A consumer's handler: sends heartbeats; its handshake asks for nothing. */
    public static HeartbeatHandler consumer(long silenceMillis) {
        return consumer(silenceMillis, Set::of);
    }

    /**
     * A consumer's handler whose handshake asks for the facts of the services {@code wanted} names (read
     * on the event loop when the connection is up, and again by {@link #askMissing}).
     */
    public static HeartbeatHandler consumer(long silenceMillis, Supplier<Set<String>> wanted) {
        return new HeartbeatHandler(true, silenceMillis, null, null, wanted);
    }

    /**
     * A provider's handler: answers heartbeats through {@code answers}, behind the responses already
     * queued there, so an answered heartbeat proves that everything sent before it was answered.
     */
    public static HeartbeatHandler provider(long silenceMillis, ResponseWriter answers) {
        return new HeartbeatHandler(false, silenceMillis, answers, null, null);
    }

    /**
     * A provider's handler whose answer to a heartbeat carrying a query, and to the first heartbeat of a
     * connection, carries {@code handshake}'s facts: it is given the names asked for (empty for a first
     * heartbeat without a query) and runs on the event loop.
     */
    public static HeartbeatHandler provider(long silenceMillis, ResponseWriter answers,
            Function<Set<String>, Map<String, Map<String, String>>> handshake) {
        return new HeartbeatHandler(false, silenceMillis, answers, handshake, null);
    }

    private HeartbeatHandler(boolean consumer, long silenceMillis, ResponseWriter answers,
            Function<Set<String>, Map<String, Map<String, String>>> handshake, Supplier<Set<String>> wanted) {
        this.consumer = consumer;
        this.silenceMillis = silenceMillis;
        this.answers = answers;
        this.handshake = handshake;
        this.wanted = wanted;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (consumer) {
            Set<String> names = wanted.get();
            asked.addAll(names);
            ping(ctx, names); // the handshake
        }
        super.channelActive(ctx);
    }

    /**
     * Consumer, on the event loop of an active channel: asks for the services wanted and not yet asked
     * for on this channel (a reference that started sharing the connection after its handshake).
     */
    public void askMissing() {
        if (!consumer || ctx == null || !ctx.channel().isActive()) {
            return;
        }
        Set<String> missing = new LinkedHashSet<>(wanted.get());
        missing.removeAll(asked);
        if (!missing.isEmpty()) {
            asked.addAll(missing);
            ping(ctx, missing);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof Frame f) || !f.isEvent() || f.status == Status.GOING_AWAY.code()
                || f.status == Status.CREDENTIAL.code() || f.status == Status.TLS_MISMATCH.code()) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (!f.isRequest()) {
            answered(ctx, f);
            return;
        }
        Set<String> query = handshake == null || !f.isTwoWay() ? null : query(ctx, f);
        f.release();
        if (f.isTwoWay()) {
            if (answers != null) {
                Map<String, Map<String, String>> facts = null;
                if (query != null && (!query.isEmpty() || !handshakeDone)) {
                    facts = handshake.apply(query);
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

    /** Consumer: a heartbeat answer; the first one, and each answer to a query, carry the provider's facts. */
    private void answered(ChannelHandlerContext ctx, Frame f) {
        Set<String> names = queries.remove(f.requestId);
        boolean first = !handshakeDone;
        Handshake.Facts facts = first || names != null
                ? new Handshake.Facts(facts(ctx, f), names == null ? Set.of() : names, first) : null;
        f.release();
        handshakeDone = true;
        if (facts != null) {
            ctx.fireUserEventTriggered(facts);
        }
        if (first) {
            ctx.fireUserEventTriggered(Event.PEER_ANSWERED);
        }
    }

    /** Provider: the names a heartbeat asks about (empty without a query); a malformed query asks for nothing. */
    private static Set<String> query(ChannelHandlerContext ctx, Frame ping) {
        if (ping.body == null || !ping.body.isReadable()) {
            return Set.of();
        }
        try {
            return Handshake.readQuery(ping.body.duplicate());
        } catch (RuntimeException e) {
            log.debug("Consumer {} sent a malformed handshake query ({}); answered without facts",
                    ctx.channel().remoteAddress(), e.getMessage());
            return Set.of();
        }
    }

    /** The provider's handshake facts; a malformed body is logged and read as nothing said. */
    private static Map<String, Map<String, String>> facts(ChannelHandlerContext ctx, Frame answer) {
        if (answer.body == null) {
            return Map.of();
        }
        try {
            return Handshake.read(answer.body.duplicate());
        } catch (RuntimeException e) {
            log.warn("Provider {} sent a malformed handshake ({}); using this consumer's own settings",
                    ctx.channel().remoteAddress(), e.getMessage());
            return Map.of();
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
            ping(ctx, Set.of());
        }
    }

    /** Sends a heartbeat; with names, its body is a {@link Handshake} query for them. */
    private void ping(ChannelHandlerContext ctx, Set<String> names) {
        ByteBuf ping = ctx.alloc().ioBuffer(Wire.HEADER_BYTES);
        long id = ++nextPingId;
        Wire.writeHeader(ping, (byte) (Wire.FLAG_REQUEST | Wire.FLAG_TWO_WAY | Wire.FLAG_EVENT), (byte) 0, (byte) 0,
                id, 0);
        if (!names.isEmpty()) {
            Handshake.writeQuery(ping, names);
            ping.setInt(Wire.LENGTH_OFFSET, ping.readableBytes() - Wire.HEADER_BYTES);
            queries.put(id, Set.copyOf(names));
        }
        ctx.writeAndFlush(ping, ctx.voidPromise());
    }
}
