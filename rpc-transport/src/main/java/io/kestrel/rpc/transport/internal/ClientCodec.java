package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.api.ConnectionUnavailableException;
import io.kestrel.rpc.api.PayloadTooLargeException;
import io.kestrel.rpc.api.RpcException;
import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.internal.stream.StreamFrames;
import io.kestrel.rpc.transport.internal.tls.TlsMismatchException;
import io.kestrel.rpc.transport.TransportCounters;
import io.kestrel.rpc.transport.spi.MethodRef;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import java.util.IdentityHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumer's codec for one connection. Outbound, it turns queued {@link PendingCall}s into request
 * frames ({@link RequestEncoder}), defining each method's descriptor the first time the connection
 * uses it and sending its small number afterwards. Inbound, it matches response frames to their
 * {@link PendingCalls pending call} and completes it ({@link ResponseDecoder}). It also takes the
 * provider's going-away notice: from then on it writes nothing more, answers the notice (so the
 * provider knows every request sent before has arrived) and fires {@link #GOING_AWAY}.
 *
 * <p>Runs on the channel's event loop only, so a method's definition always precedes its uses.
 */
public final class ClientCodec extends ChannelDuplexHandler {
    private static final Logger log = LoggerFactory.getLogger(ClientCodec.class);

    /** User event fired when the provider said it is going away. */
    public static final Object GOING_AWAY = "kestrel-going-away";

    private final PendingCalls pending;
    private final ResponseDecoder responses;
    private final TransportCounters counters;
    private final String address;
    private final int payloadBytes;
    private final IdentityHashMap<MethodRef, Integer> methodRefs = new IdentityHashMap<>();
    private boolean goAwayAcknowledged;
    /**
     * Where each request's head is written before it is copied in front of the arguments (event loop only;
     * reused, so a request allocates no head buffer of its own).
     */
    private final ByteBuf headScratch = Unpooled.buffer(RequestEncoder.HEAD_ROOM);

    public ClientCodec(PendingCalls pending, ResponseDecoder responses, TransportCounters counters, String address,
            int payloadBytes) {
        this.pending = pending;
        this.responses = responses;
        this.counters = counters;
        this.address = address;
        this.payloadBytes = payloadBytes;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof PendingCall call)) {
            ctx.write(msg, promise);
            return;
        }
        MethodRef method = call.method;
        int[] lengths = call.argumentLengths();
        ByteBuf args = call.takeArgumentBytes();
        if (args == null) {
            return; // written already (a call is queued once)
        }
        if (!call.isPending()) {
            args.release(); // timed out while queued
            return;
        }
        if (!ctx.channel().isActive() || goAwayAcknowledged) {
            args.release();
            call.fail(new ConnectionUnavailableException("connection to " + address
                    + (goAwayAcknowledged ? " is shutting down" : " closed") + " before "
                    + method.displayName() + " was sent; the call did not run"));
            return;
        }
        Integer ref = methodRefs.get(method);
        int refValue = ref != null ? ref : methodRefs.size();
        if (refValue >= RequestDecoder.MAX_METHOD_REFS) {
            args.release();
            call.fail(new RpcException("more than " + RequestDecoder.MAX_METHOD_REFS
                    + " distinct methods called on one connection to " + address));
            return;
        }
        ByteBuf head = headScratch.clear();
        RequestEncoder.writeHead(head, call.id, call.serializer.id(), call.timeoutMillis, call.attachments, refValue,
                ref == null ? method.descriptor() : null, lengths, args.readableBytes());
        int bodyLength = RequestEncoder.bodyLength(head);
        if (bodyLength > payloadBytes) {
            args.release();
            call.fail(new PayloadTooLargeException("request " + method.displayName() + " to " + address
                    + " is " + bodyLength + " bytes, over the payload limit of " + payloadBytes
                    + " bytes; it was not sent"));
            return;
        }
        if (ref == null) {
            methodRefs.put(method, refValue);
        }
        ByteBuf frame = RequestEncoder.prepend(head, args);
        if (frame != null) {
            ctx.write(frame, ctx.voidPromise());
        } else {
            ctx.write(ctx.alloc().ioBuffer(head.readableBytes()).writeBytes(head), ctx.voidPromise());
            ctx.write(args, ctx.voidPromise());
        }
        counters.frameWritten();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof Frame f)) {
            ctx.fireChannelRead(msg);
            return;
        }
        boolean handedOff = false;
        try {
            if (StreamFrames.isStream(f)) {
                handedOff = pending.streams().onFrame(f);
            } else if (f.isEvent()) {
                if (f.status == Status.GOING_AWAY.code()) {
                    onGoingAway(ctx);
                } else if (f.status == Status.TLS_MISMATCH.code()) {
                    String explanation = f.body != null && f.body.isReadable() ? Wire.readString(f.body, 4096) : null;
                    ctx.fireExceptionCaught(new TlsMismatchException(explanation != null ? explanation
                            : "provider " + address + " refused this plaintext connection: it requires TLS"));
                    ctx.close();
                }
            } else if (!f.isRequest()) {
                PendingCall call = pending.take(f.requestId);
                if (call == null) {
                    log.debug("Response {} from {} arrived after its call ended; dropped", f.requestId, address);
                } else {
                    // a blocking caller waiting for it decodes it on its own thread; else it is decoded here
                    handedOff = call.handAnswerToCaller(f, responses) || responses.complete(call, f);
                }
            }
        } finally {
            if (!handedOff) {
                f.release();
                f.done(); // the memory budget taken for it
            }
        }
    }

    /**
     * The provider is shutting down: stop writing on this channel and acknowledge. Every request
     * written before the acknowledgement precedes it on the wire, and {@link #write} refuses (as not
     * sent) anything that comes after.
     */
    private void onGoingAway(ChannelHandlerContext ctx) {
        if (goAwayAcknowledged) {
            return;
        }
        goAwayAcknowledged = true;
        ByteBuf ack = ctx.alloc().ioBuffer(Wire.HEADER_BYTES);
        Wire.writeHeader(ack, (byte) (Wire.FLAG_REQUEST | Wire.FLAG_EVENT), (byte) 0, Status.GOING_AWAY.code(), 0, 0);
        ctx.writeAndFlush(ack, ctx.voidPromise());
        ctx.fireUserEventTriggered(GOING_AWAY);
    }
}
