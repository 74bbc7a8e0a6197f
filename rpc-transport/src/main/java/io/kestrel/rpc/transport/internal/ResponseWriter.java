package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.transport.ServerMethod;
import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.TransportCounters;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;

/**
 * Writes a provider connection's responses and notices through one {@link WriteQueue} (any thread
 * may answer; one flush per batch). Every response is checked against the payload limit before it
 * is queued: one that is too large is replaced by a PAYLOAD_TOO_LARGE answer. One per connection.
 */
public final class ResponseWriter {
    private final Channel channel;
    private final WriteQueue<ByteBuf> queue;
    private final int maxBodyBytes;

    public ResponseWriter(Channel channel, TransportCounters counters, int maxBodyBytes) {
        this.channel = channel;
        this.maxBodyBytes = maxBodyBytes;
        this.queue = new WriteQueue<>(channel, buf -> {
            counters.frameWritten();
            channel.write(buf, channel.voidPromise());
        });
    }

    /** Answers {@code request} with the method's result. */
    public void value(Frame request, ServerMethod method, Serializer serializer, Object value) {
        ByteBuf frame;
        try {
            frame = ResponseEncoder.value(channel.alloc(), serializer, value);
        } catch (RuntimeException e) {
            error(request, Status.BAD_RESPONSE, "provider cannot serialize the result of " + method.displayName()
                    + " (" + value.getClass().getName() + ") with " + serializer.name() + ": " + e.getMessage());
            return;
        }
        send(request, method, frame, Status.OK);
    }

    /** Answers {@code request} with the exception the method threw. */
    public void exception(Frame request, ServerMethod method, Serializer serializer, Throwable t) {
        ByteBuf frame = ResponseEncoder.exception(channel.alloc(), serializer, t);
        send(request, method, frame, Status.SERVICE_ERROR);
    }

    /** Answers {@code request} with an error status and its message (nothing for one-way requests). */
    public void error(Frame request, Status status, String message) {
        if (!request.isTwoWay()) {
            return;
        }
        ByteBuf frame = ResponseEncoder.error(channel.alloc(), message);
        ResponseEncoder.finish(frame, request.serializationId, status, request.requestId);
        queue.enqueue(frame);
    }

    /** Answers a heartbeat request (an event frame with its id and status OK). */
    public void heartbeatAnswer(Frame ping) {
        ByteBuf frame = channel.alloc().ioBuffer(Wire.HEADER_BYTES);
        Wire.writeHeader(frame, Wire.FLAG_EVENT, ping.serializationId, Status.OK.code(), ping.requestId, 0);
        queue.enqueue(frame);
    }

    /** Sends an event frame (no body) with this status. */
    public void event(Status status) {
        ByteBuf frame = channel.alloc().ioBuffer(Wire.HEADER_BYTES);
        Wire.writeHeader(frame, Wire.FLAG_EVENT, (byte) 0, status.code(), 0, 0);
        queue.enqueue(frame);
    }

    private void send(Frame request, ServerMethod method, ByteBuf frame, Status status) {
        int bodyLength = ResponseEncoder.bodyLength(frame);
        if (bodyLength > maxBodyBytes) {
            frame.release();
            error(request, Status.PAYLOAD_TOO_LARGE, "response of " + method.displayName() + " is " + bodyLength
                    + " bytes, over the provider's payload limit of " + maxBodyBytes
                    + " bytes; return less data or raise payload on both sides");
            return;
        }
        ResponseEncoder.finish(frame, request.serializationId, status, request.requestId);
        queue.enqueue(frame);
    }
}
