package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.transport.Status;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Provider side of the response body: writes what {@link ResponseDecoder} reads on the consumer.
 *
 * <pre>
 *  header (18 bytes, see {@link FrameDecoder}), flags = 0 [| 0x10 attachments], serialization id and
 *  request id of the request, status byte of {@link Status}
 *  status OK, flag 0x10 only: +--------------------------------------------------------+
 *  (then as below)            | varint count, {string key, string value}* (response    |
 *                             | attachments; the flag is unset when there are none)    |
 *                             +--------------------------------------------------------+
 *  status OK:            +-----------------------+--------------------------------------+
 *                        | byte kind: 0 null,    | value bytes (kind 1 only), written   |
 *                        |            1 value    | by the frame's serializer            |
 *                        +-----------------------+--------------------------------------+
 *  status SERVICE_ERROR: +-----------------+----------------+-------------------------------+
 *                        | string class    | string message | serialized Throwable, if the  |
 *                        | name            | (may be empty) | serializer could write it     |
 *                        +-----------------+----------------+-------------------------------+
 *  other statuses:       +-----------------------------------------+
 *                        | string message: what went wrong and why |
 *                        +-----------------------------------------+
 *  string = varint byte length + UTF-8 bytes
 * </pre>
 *
 * Values are serialized through a {@link FrameOutput}: a large one becomes a composite frame of
 * several pooled buffers instead of one buffer grown by copying.
 * Each method returns a whole frame whose header still needs {@link #finish}: the body length is
 * known only once the body is written, and the caller checks it against the payload limit first.
 * A response without attachments is byte for byte what versions before response attachments wrote,
 * and those read a flag-0x10 response only from a provider whose service set attachments.
 */
public final class ResponseEncoder {
    private static final Logger log = LoggerFactory.getLogger(ResponseEncoder.class);
    public static final byte RESULT_NULL = 0;
    public static final byte RESULT_VALUE = 1;

    private ResponseEncoder() {
    }

    /**
     * A successful result.
     *
     * @throws RuntimeException what the serializer threw (the buffer is released)
     */
    public static ByteBuf value(ByteBufAllocator alloc, Serializer serializer, Object value) {
        return value(alloc, serializer, value, Map.of());
    }

    /**
     * A successful result with response attachments (none: the same bytes as without); the caller
     * passes {@link Wire#FLAG_ATTACHMENTS} to {@link #finish} when {@code attachments} is not empty.
     */
    public static ByteBuf value(ByteBufAllocator alloc, Serializer serializer, Object value,
            Map<String, String> attachments) {
        ByteBuf buf = start(alloc, FrameOutput.FIRST_BUFFER_BYTES);
        if (!attachments.isEmpty()) {
            try {
                Wire.writeAttachments(buf, attachments);
            } catch (RuntimeException e) {
                buf.release();
                throw e;
            }
        }
        if (value == null) {
            buf.writeByte(RESULT_NULL);
            return buf;
        }
        buf.writeByte(RESULT_VALUE);
        FrameOutput out = new FrameOutput(alloc, buf);
        try {
            serializer.serialize(value, out);
            return out.finish();
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }

    /**
     * An exception the service threw: type and message always, the exception itself when the
     * serializer can write it (else the consumer rebuilds what it can from type and message).
     */
    public static ByteBuf exception(ByteBufAllocator alloc, Serializer serializer, Throwable t) {
        ByteBuf buf = start(alloc, 256);
        Wire.writeString(buf, t.getClass().getName());
        Wire.writeString(buf, t.getMessage());
        int mark = buf.writerIndex();
        FrameOutput out = new FrameOutput(alloc, buf);
        try {
            serializer.serialize(t, out);
            return out.finish();
        } catch (RuntimeException e) {
            log.debug("Cannot serialize {} with {}; sending its type and message only: {}", t.getClass().getName(),
                    serializer.name(), e.toString());
            ByteBuf frame = out.finish();
            frame.writerIndex(mark); // what spilled into further buffers is dropped with them on release
            return frame;
        }
    }

    /** An error status with its message. */
    public static ByteBuf error(ByteBufAllocator alloc, String message) {
        ByteBuf buf = start(alloc, 64 + message.length());
        Wire.writeString(buf, message);
        return buf;
    }

    /** Bytes of body in a frame built by this class. */
    public static int bodyLength(ByteBuf frame) {
        return frame.writerIndex() - Wire.HEADER_BYTES;
    }

    /** Writes the header in front of the body. */
    public static void finish(ByteBuf frame, byte serializationId, Status status, long requestId) {
        finish(frame, (byte) 0, serializationId, status, requestId);
    }

    /** Writes the header, with these flags, in front of the body. */
    public static void finish(ByteBuf frame, byte flags, byte serializationId, Status status, long requestId) {
        int end = frame.writerIndex();
        frame.writerIndex(0);
        Wire.writeHeader(frame, flags, serializationId, status.code(), requestId, end - Wire.HEADER_BYTES);
        frame.writerIndex(end);
    }

    private static ByteBuf start(ByteBufAllocator alloc, int capacity) {
        ByteBuf buf = alloc.ioBuffer(capacity);
        buf.writerIndex(Wire.HEADER_BYTES);
        return buf;
    }
}
