package io.kestrel.rpc.transport.internal.dubbo;

import io.kestrel.rpc.api.ConnectionUnavailableException;
import io.kestrel.rpc.api.RemoteOrigin;
import io.kestrel.rpc.api.RpcException;
import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.serialization.DecodeBudget;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.TransportCounters;
import io.kestrel.rpc.transport.internal.MemoryBudget;
import io.kestrel.rpc.transport.internal.PendingCall;
import io.kestrel.rpc.transport.internal.PendingCalls;
import io.kestrel.rpc.transport.spi.AttachedValue;
import io.kestrel.rpc.transport.spi.RpcRequest;
import io.kestrel.rpc.transport.internal.ResponseDecoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consumer connection's dubbo-protocol codec: writes each queued request (its body written by
 * {@link DubboRequestEncoder} on the calling thread) behind its header, and completes the pending call of each
 * response by its request id: the value (with the provider's response attachments), the exception the provider
 * sent, or the error of a non-OK status. Heartbeats are {@link DubboClientHeartbeat}'s.
 */
final class DubboClientCodec extends ChannelDuplexHandler {
    private static final Logger log = LoggerFactory.getLogger(DubboClientCodec.class);

    private final PendingCalls pending;
    private final TransportCounters counters;
    private final String address;
    private final int payloadBytes;
    private final MemoryBudget budget;

    /** @param budget the responses' memory budget, given back for each frame once it is handled */
    DubboClientCodec(PendingCalls pending, TransportCounters counters, String address, int payloadBytes,
            MemoryBudget budget) {
        this.budget = budget;
        this.pending = pending;
        this.counters = counters;
        this.address = address;
        this.payloadBytes = payloadBytes;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (!(msg instanceof PendingCall call)) {
            ctx.write(msg, promise);
            return;
        }
        ByteBuf body = call.takeArgumentBytes();
        if (body == null) {
            return; // written already (a call is queued once)
        }
        if (!call.isPending()) {
            body.release(); // timed out while queued
            return;
        }
        if (!ctx.channel().isActive()) {
            body.release();
            call.fail(new ConnectionUnavailableException("connection to " + address + " closed before "
                    + call.method().displayName() + " was sent; the call did not run"));
            return;
        }
        ByteBuf header = ctx.alloc().ioBuffer(DubboWire.HEADER_BYTES);
        DubboWire.writeHeader(header, (byte) (DubboWire.FLAG_REQUEST | DubboWire.FLAG_TWO_WAY
                | DubboWire.dubboSerializationId(call.serializer().id())), (byte) 0, call.id());
        header.setInt(12, body.readableBytes());
        ctx.write(header, ctx.voidPromise());
        ctx.write(body, ctx.voidPromise());
        counters.frameWritten();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof DubboFrame f)) {
            ctx.fireChannelRead(msg);
            return;
        }
        long reserved = f.reserved; // the body is decoded here, on this thread: held in the budget until done
        try {
            if (f.isEvent()) {
                ctx.fireChannelRead(f); // heartbeats: the next handler's
                f = null;
                return;
            }
            if (f.isRequest()) {
                return; // a provider does not call its consumer on this protocol (no callbacks)
            }
            PendingCall call = pending.take(f.requestId);
            if (call == null) {
                log.debug("Dubbo response {} from {} arrived after its call ended; dropped", f.requestId, address);
                return;
            }
            complete(call, f);
        } finally {
            if (f != null) {
                f.release();
            }
            if (reserved > 0) {
                budget.release(reserved);
            }
        }
    }

    /** Completes the call from its response; never throws. */
    private void complete(PendingCall call, DubboFrame f) {
        RpcRequest request = call.request();
        String where = request.method().displayName() + " on dubbo provider " + address;
        try {
            if (f.body == null) {
                call.future().completeExceptionally(f.skippedBecause == DubboFrameDecoder.OVER_CONSUMER_BUDGET
                        ? ResponseDecoder.overBudget(where, f.bodyLength)
                        : ResponseDecoder.oversized(where, f.bodyLength, payloadBytes));
                return;
            }
            Serializer serializer = request.serializer();
            if (DubboWire.kestrelSerializationId(f.serializationId()) != serializer.id()) {
                throw new SerializationException("dubbo provider " + address + " answered with serialization id "
                        + f.serializationId() + " to a " + serializer.name() + " request");
            }
            if (f.status != DubboWire.STATUS_OK) {
                String message = serializer.readSequence(new ByteBufInputStream(f.body), DecodeBudget.withDeadline(
                        serializer.decodeLimits(), call.deadlineNanos()), values -> String.valueOf(values.read(String.class)));
                call.future().completeExceptionally(Status.toException(DubboWire.kestrelStatus(f.status).code(),
                        message + " [" + where + "]"));
                return;
            }
            // within the decode limits and the call's deadline, as a native consumer reads its answers
            DecodeBudget budget = DecodeBudget.withDeadline(serializer.decodeLimits(), call.deadlineNanos());
            Object[] outcome = serializer.readSequence(new ByteBufInputStream(f.body), budget, values -> {
                int type = ((Number) values.read(int.class)).intValue();
                Object value = null;
                Throwable thrown = null;
                int kind = type >= 3 ? type - 3 : type;
                if (kind == DubboWire.RESPONSE_VALUE) {
                    value = values.read(request.returnType());
                } else if (kind == DubboWire.RESPONSE_WITH_EXCEPTION) {
                    Object t = values.read(Throwable.class);
                    thrown = t instanceof Throwable th ? th : new RpcException("dubbo provider " + address
                            + " sent an exception that is not a Throwable: " + t);
                } else if (kind != DubboWire.RESPONSE_NULL_VALUE) {
                    throw new java.io.IOException("unknown dubbo response type " + type);
                }
                Map<String, String> attachments = type >= 3 ? strings(values.read(Map.class)) : Map.of();
                return new Object[] {value, thrown, attachments};
            });
            @SuppressWarnings("unchecked")
            Map<String, String> attachments = (Map<String, String>) outcome[2];
            if (outcome[1] != null) {
                Throwable t = (Throwable) outcome[1];
                t.addSuppressed(new RemoteOrigin(address, request.method().displayName()));
                call.future().completeExceptionally(t);
            } else {
                call.future().complete(attachments.isEmpty() ? outcome[0] : new AttachedValue(outcome[0], attachments));
            }
        } catch (Throwable t) {
            call.future().completeExceptionally(t instanceof RpcException ? t
                    : new SerializationException("cannot decode the response of " + where + ": " + t, t));
        }
    }

    private static Map<String, String> strings(Object map) {
        if (!(map instanceof Map<?, ?> m) || m.isEmpty()) {
            return Map.of();
        }
        Map<String, String> text = new HashMap<>();
        m.forEach((k, v) -> {
            if (k instanceof String key && (v instanceof String || v instanceof Number || v instanceof Boolean)) {
                text.put(key, v.toString());
            }
        });
        return text;
    }
}
