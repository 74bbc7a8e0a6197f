package io.kestrel.rpc.transport.internal.dubbo;

import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.internal.ProviderLog;
import io.kestrel.rpc.transport.internal.ResponseQueue;
import io.kestrel.rpc.transport.spi.ServerMethod;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.channel.Channel;
import java.util.Map;

/**
 * Writes one dubbo-protocol connection's responses (body layout in {@link DubboWire}) through its
 * {@link ResponseQueue} (any thread may answer; one flush per batch; every frame, heartbeat answers and error
 * answers too, counted in the memory budget and the connection's backpressure until written). A response larger than the payload limit is
 * replaced by a BAD_RESPONSE answer saying so. Failures are logged like the native protocol's
 * ({@link ProviderLog}).
 */
final class DubboResponseWriter {
    /** The first dubbo version whose consumers read attachments in responses ("2.0.2", Dubbo 2.7 and later). */
    private static final int ATTACHMENTS_SINCE = 2_00_02;

    private final Channel channel;
    private final ResponseQueue queue;
    private final int maxBodyBytes;
    private final String remote;

    /** @param queue the connection's answers: every frame written here is counted there until written */
    DubboResponseWriter(Channel channel, ResponseQueue queue, int maxBodyBytes, String remote) {
        this.channel = channel;
        this.maxBodyBytes = maxBodyBytes;
        this.remote = remote;
        this.queue = queue;
    }

    /** Answers a two-way heartbeat: an event response with a null body. */
    void heartbeat(long requestId, byte dubboSerializationId) {
        ByteBuf buf = channel.alloc().buffer(DubboWire.HEADER_BYTES + 1);
        DubboWire.writeHeader(buf, (byte) (DubboWire.FLAG_EVENT | dubboSerializationId), DubboWire.STATUS_OK,
                requestId);
        buf.writeByte('N'); // hessian2's null: what Dubbo reads as a heartbeat
        DubboWire.setBodyLength(buf, 0);
        queue.enqueue(buf);
    }

    /** The method's value (null, a value, or the exception it threw) with the response attachments. */
    void result(long requestId, String dubboVersion, ServerMethod method, Serializer serializer,
            byte dubboSerializationId, Object value, Throwable thrown, Map<String, String> attachments) {
        if (thrown != null) {
            ProviderLog.serviceError(method.displayName(), thrown, method.declares(thrown), remote, requestId);
        }
        boolean withAttachments = versionNumber(dubboVersion) >= ATTACHMENTS_SINCE;
        byte type = thrown != null ? DubboWire.RESPONSE_WITH_EXCEPTION : value == null ? DubboWire.RESPONSE_NULL_VALUE
                : DubboWire.RESPONSE_VALUE;
        byte written = (byte) (withAttachments ? type + 3 : type);
        ByteBuf buf = channel.alloc().buffer();
        try {
            DubboWire.writeHeader(buf, dubboSerializationId, DubboWire.STATUS_OK, requestId);
            serializer.writeSequence(new ByteBufOutputStream(buf), values -> {
                values.write((int) written); // Dubbo writes the type as an int
                if (thrown != null) {
                    values.write(thrown);
                } else if (value != null) {
                    values.write(value);
                }
                if (withAttachments) {
                    values.write(new java.util.HashMap<>(attachments));
                }
                return null;
            });
        } catch (RuntimeException e) {
            buf.release();
            error(requestId, dubboSerializationId, serializer, Status.BAD_RESPONSE, "provider could not serialize the"
                    + " result of " + method.displayName() + " with " + serializer.name() + ": " + e.getMessage());
            return;
        }
        int length = DubboWire.setBodyLength(buf, 0);
        if (length > maxBodyBytes) {
            buf.release();
            error(requestId, dubboSerializationId, serializer, Status.BAD_RESPONSE, "response of " + length
                    + " bytes to " + method.displayName() + " exceeds the provider's payload limit of " + maxBodyBytes
                    + " bytes; return less data or raise payload on the provider's protocol");
            return;
        }
        queue.enqueue(buf);
    }

    /** An answer with a non-OK status whose body is {@code message}; logged like the native protocol's. */
    void error(long requestId, byte dubboSerializationId, Serializer serializer, Status status, String message) {
        if (status == Status.SERVER_TIMEOUT) {
            ProviderLog.late("from " + remote, message, remote, requestId);
        } else {
            ProviderLog.refused(status.name(), "from " + remote, message, remote, requestId);
        }
        ByteBuf buf = channel.alloc().buffer();
        DubboWire.writeHeader(buf, dubboSerializationId, DubboWire.dubboStatus(status), requestId);
        if (serializer != null) {
            serializer.writeSequence(new ByteBufOutputStream(buf), values -> {
                values.write(message);
                return null;
            });
        } else {
            HessianText.writeString(buf, message); // no serializer for an unknown id: Dubbo's default, hessian2
        }
        DubboWire.setBodyLength(buf, 0);
        queue.enqueue(buf);
    }

    /** "2.0.2" as 20002, "3.3.6" as 30306; 0 when unreadable. */
    static int versionNumber(String version) {
        if (version == null) {
            return 0;
        }
        int number = 0;
        int parts = 0;
        for (String part : version.split("\\.")) {
            if (parts == 3) {
                break;
            }
            try {
                number = number * 100 + Math.min(99, Integer.parseInt(part.replaceAll("\\D.*", "")));
            } catch (NumberFormatException e) {
                return 0;
            }
            parts++;
        }
        while (parts++ < 3) {
            number *= 100;
        }
        return number;
    }
}
