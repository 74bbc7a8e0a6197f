package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.api.AttachmentLimits;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.TransportCounters;
import io.kestrel.rpc.transport.spi.ServerMethod;
import io.kestrel.rpc.transport.internal.stream.StreamFrames;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import java.util.Map;

/**
 * Writes a provider connection's responses and notices through its {@link ResponseQueue} (any thread
 * may answer; one flush per batch; each frame counted in the memory budget until written). Every
 * response is checked against the payload limit before it is queued: one that is too large is
 * replaced by a PAYLOAD_TOO_LARGE answer. One per connection.
 */
public final class ResponseWriter {
    private final Channel channel;
    private final ResponseQueue queue;
    private final int maxBodyBytes;
    private String remote;
    private String remoteHost;

    public ResponseWriter(Channel channel, TransportCounters counters, int maxBodyBytes) {
        this(channel, counters, maxBodyBytes, null);
    }

    /**
     * @param budget counts every frame from being queued until it is written to the socket (null:
     *     none), so responses a consumer does not read hold the provider's budget and new work is
     *     refused
     */
    public ResponseWriter(Channel channel, TransportCounters counters, int maxBodyBytes, MemoryBudget budget) {
        this(new ResponseQueue(channel, counters, budget, Long.MAX_VALUE), channel, maxBodyBytes);
    }

    /** Writes through a connection's {@link ResponseQueue} (so its backpressure sees these frames). */
    public ResponseWriter(ResponseQueue queue, Channel channel, int maxBodyBytes) {
        this.channel = channel;
        this.maxBodyBytes = maxBodyBytes;
        this.queue = queue;
    }

    /** Answers of other threads than the event loop are held back until {@link #releaseFlush} (see {@link CallBatch}). */
    void holdFlush() {
        queue.holdFlush();
    }

    /** Ends a {@link #holdFlush}: what was held back is written and flushed at once. */
    void releaseFlush() {
        queue.releaseFlush();
    }

    private void enqueue(ByteBuf frame) {
        queue.enqueue(frame);
    }

    /** Queues a frame that must not wait behind stream data (see {@link WriteQueue}). */
    private void enqueueUrgent(ByteBuf frame) {
        queue.enqueue(frame, true);
    }

    /** Sends a stream frame ({@link StreamFrames}), counted and held like an answer, after the frames queued. */
    public void streamFrame(ByteBuf frame) {
        enqueue(frame);
    }

    /** Sends a stream's WINDOW frame, counted like an answer, ahead of the stream data still queued. */
    public void streamCredit(ByteBuf window) {
        enqueueUrgent(window);
    }

    /** Answers {@code request} with the method's result. */
    public void value(Frame request, ServerMethod method, Serializer serializer, Object value) {
        value(request, method, serializer, value, Map.of());
    }

    /** Answers {@code request} with the method's result and the call's response attachments. */
    public void value(Frame request, ServerMethod method, Serializer serializer, Object value,
            Map<String, String> attachments) {
        if (!attachments.isEmpty()) {
            String problem = AttachmentLimits.violation(attachments, "the response of " + method.displayName());
            if (problem != null) {
                error(request, Status.SERVER_ERROR, problem, method.stream() == null);
                return;
            }
        }
        ByteBuf frame;
        try {
            frame = ResponseEncoder.value(channel.alloc(), serializer, value, attachments);
        } catch (RuntimeException e) {
            error(request, Status.BAD_RESPONSE, "provider cannot serialize the result of " + method.displayName()
                    + " (" + value.getClass().getName() + ") with " + serializer.name() + ": " + e.getMessage(),
                    method.stream() == null);
            return;
        }
        send(request, method, frame, Status.OK, attachments.isEmpty() ? 0 : Wire.FLAG_ATTACHMENTS);
    }

    /**
     * Answers {@code request} with the exception the method threw (logged on {@value ProviderLog#ERRORS}: at
     * WARN, or DEBUG when the method declares it).
     */
    public void exception(Frame request, ServerMethod method, Serializer serializer, Throwable t) {
        ProviderLog.serviceError(method.displayName(), t, method.declares(t), remote(), request.requestId);
        ByteBuf frame = ResponseEncoder.exception(channel.alloc(), serializer, t);
        send(request, method, frame, Status.SERVICE_ERROR, 0);
    }

    /**
     * Answers {@code request} with an error status and its message (nothing for one-way requests), ahead of the
     * stream data queued (a refused or failed call, or a refused stream that has sent nothing), and logs it:
     * {@value ProviderLog#OVERSIZED} for a payload over the limit, {@value ProviderLog#LATE} for a call dropped
     * after its caller's deadline, {@value ProviderLog#REFUSED} for the others.
     */
    public void error(Frame request, Status status, String message) {
        error(request, status, message, true);
    }

    /** As {@link #error(Frame, Status, String)} for the end of a stream that was open: after its messages. */
    public void streamError(Frame open, Status status, String message) {
        error(open, status, message, false);
    }

    private void error(Frame request, Status status, String message, boolean urgent) {
        if (status == Status.PAYLOAD_TOO_LARGE) {
            ProviderLog.oversized("from " + remoteHost(), message, remote(), request.requestId);
        } else if (status == Status.SERVER_TIMEOUT) {
            ProviderLog.late("from " + remoteHost(), message, remote(), request.requestId);
        } else {
            ProviderLog.refused(status.name(), "from " + remoteHost(), message, remote(), request.requestId);
        }
        if (!request.isTwoWay()) {
            return;
        }
        ByteBuf frame = ResponseEncoder.error(channel.alloc(), message);
        ResponseEncoder.finish(frame, request.serializationId, status, request.requestId);
        if (urgent) {
            enqueueUrgent(frame);
        } else {
            enqueue(frame);
        }
    }

    /** Answers a heartbeat request (an event frame with its id and status OK). */
    public void heartbeatAnswer(Frame ping) {
        heartbeatAnswer(ping, null);
    }

    /**
     * Answers a heartbeat request; with {@code handshake} (not null), the answer's body carries those
     * facts in the {@link Handshake} format.
     */
    public void heartbeatAnswer(Frame ping, Map<String, Map<String, String>> handshake) {
        ByteBuf frame = channel.alloc().ioBuffer(Wire.HEADER_BYTES);
        Wire.writeHeader(frame, Wire.FLAG_EVENT, ping.serializationId, Status.OK.code(), ping.requestId, 0);
        if (handshake != null && !handshake.isEmpty()) {
            Handshake.write(frame, handshake);
            frame.setInt(Wire.LENGTH_OFFSET, frame.readableBytes() - Wire.HEADER_BYTES);
        }
        enqueueUrgent(frame);
    }

    /** Sends an event frame (no body) with this status. */
    public void event(Status status) {
        ByteBuf frame = channel.alloc().ioBuffer(Wire.HEADER_BYTES);
        Wire.writeHeader(frame, Wire.FLAG_EVENT, (byte) 0, status.code(), 0, 0);
        enqueue(frame);
    }

    /** The consumer's address, host:port, for log lines. */
    public String remote() {
        String r = remote;
        if (r == null) {
            r = channel.remoteAddress() instanceof java.net.InetSocketAddress a ? a.getHostString() + ":" + a.getPort()
                    : String.valueOf(channel.remoteAddress());
            remote = r;
        }
        return r;
    }

    private String remoteHost() {
        String h = remoteHost;
        if (h == null) {
            h = channel.remoteAddress() instanceof java.net.InetSocketAddress a ? a.getHostString()
                    : String.valueOf(channel.remoteAddress());
            remoteHost = h;
        }
        return h;
    }

    private void send(Frame request, ServerMethod method, ByteBuf frame, Status status, int flags) {
        int bodyLength = ResponseEncoder.bodyLength(frame);
        if (bodyLength > maxBodyBytes) {
            frame.release();
            error(request, Status.PAYLOAD_TOO_LARGE, "response of " + method.displayName() + " is " + bodyLength
                    + " bytes, over the provider's payload limit of " + maxBodyBytes
                    + " bytes; return less data or raise payload on both sides", method.stream() == null);
            return;
        }
        ResponseEncoder.finish(frame, (byte) flags, request.serializationId, status, request.requestId);
        if (method.stream() == null) {
            enqueueUrgent(frame); // a unary answer: not behind stream data
        } else {
            enqueue(frame); // a stream's end: after its messages
        }
    }
}
