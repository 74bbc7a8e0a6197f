package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.transport.spi.MethodRef;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import java.util.Map;

/**
 * Consumer side of the request body: writes what {@link RequestDecoder} reads on the provider.
 *
 * <pre>
 *  header (18 bytes, see {@link FrameDecoder}), flags = request | two-way [| method definition]
 *  +-----------+------------------------+-----------+------------------------------+
 *  | varint    | descriptor, only with  | varint    | varint count,                |
 *  | methodRef | flag 0x08: varint len  | timeout   | {string key, string value}*  |
 *  |           | + UTF-8                | millis    | (attachments)                |
 *  +-----------+------------------------+-----------+------------------------------+
 *  +-------------------------------------+--------------------------------------------+
 *  | {varint argLength}* for every       | argument bytes, back to back, each written |
 *  | argument but the last               | by the frame's serializer                  |
 *  +-------------------------------------+--------------------------------------------+
 *  string = varint byte length + UTF-8 bytes
 * </pre>
 *
 * The arguments are serialized on the calling thread ({@link #serializeArguments}); the rest is
 * written on the event loop ({@link #writeHead}), where the per-connection method table lives. The
 * arguments' buffer keeps {@value #HEAD_ROOM} bytes free in front of them, so that a head which fits
 * is copied there and the request goes out as one buffer ({@link #prepend}); a larger one (the method's
 * descriptor on a connection's first call of it, large attachments) goes as a buffer of its own.
 */
public final class RequestEncoder {
    /** The argument lengths of a call with one argument or none (the last argument's length is not sent). */
    static final int[] NO_LENGTHS = new int[0];

    /**
     * Bytes left free in front of the serialized arguments for the frame head: the 18-byte header, the
     * method number, the timeout, the argument lengths and some 100 bytes of attachments (a W3C
     * {@code traceparent} takes 69).
     */
    public static final int HEAD_ROOM = 128;

    private RequestEncoder() {
    }

    /** An array for the lengths of every argument but the last (a shared empty one for one argument or none). */
    public static int[] lengthsFor(Object[] args) {
        int n = args == null ? 0 : args.length;
        return n <= 1 ? NO_LENGTHS : new int[n - 1];
    }

    /**
     * Serializes {@code args} with {@code serializer} into one buffer, and the byte length of each argument but the
     * last into {@code lengths} (from {@link #lengthsFor}).
     *
     * @throws SerializationException naming the method and serializer when one cannot be written
     *     (nothing is left allocated)
     */
    public static ByteBuf serializeArguments(ByteBufAllocator alloc, MethodRef method, Serializer serializer,
            Object[] args, int[] lengths) {
        int n = args == null ? 0 : args.length;
        ByteBuf first = alloc.ioBuffer(FrameOutput.FIRST_BUFFER_BYTES);
        first.setIndex(HEAD_ROOM, HEAD_ROOM);
        FrameOutput out = new FrameOutput(alloc, first);
        try {
            for (int i = 0; i < n; i++) {
                long start = out.size();
                serializer.serialize(args[i], out);
                if (i < n - 1) {
                    lengths[i] = (int) (out.size() - start);
                }
            }
        } catch (RuntimeException e) {
            out.release();
            throw e instanceof SerializationException s ? s : new SerializationException("cannot serialize the"
                    + " arguments of " + method.displayName() + " with " + serializer.name() + ": " + e, e);
        }
        return out.finish();
    }

    /**
     * Writes the frame header and the body up to the arguments into {@code head}, which must be empty (the
     * header at index 0); the header's body length counts {@code argumentBytes} that follow the head.
     *
     * @param descriptor the method descriptor to define with {@code methodRef}, or null when the
     *     connection has defined it already
     */
    public static void writeHead(ByteBuf head, long requestId, byte serializationId, int timeoutMillis,
            Map<String, String> attachments, int methodRef, String descriptor, int[] argumentLengths,
            int argumentBytes) {
        byte flags = (byte) (Wire.FLAG_REQUEST | Wire.FLAG_TWO_WAY | (descriptor != null ? Wire.FLAG_METHOD_DEF : 0));
        Wire.writeHeader(head, flags, serializationId, (byte) 0, requestId, 0);
        Wire.writeVarint(head, methodRef);
        if (descriptor != null) {
            Wire.writeString(head, descriptor);
        }
        Wire.writeVarint(head, timeoutMillis);
        Wire.writeAttachments(head, attachments);
        for (int length : argumentLengths) {
            Wire.writeVarint(head, length);
        }
        head.setInt(Wire.LENGTH_OFFSET, head.writerIndex() - Wire.HEADER_BYTES + argumentBytes);
    }

    /**
     * The whole request: {@code head} copied into the room in front of {@code args} when it fits there
     * (then {@code args} is the frame, one buffer), else null and the caller writes a copy of the head
     * followed by {@code args}. {@code head} is only read.
     */
    public static ByteBuf prepend(ByteBuf head, ByteBuf args) {
        int n = head.readableBytes();
        int at = args.readerIndex() - n;
        if (at < 0 || args instanceof CompositeByteBuf) {
            return null;
        }
        args.setBytes(at, head, head.readerIndex(), n);
        args.readerIndex(at);
        return args;
    }

    /** The body length a head written by {@link #writeHead} declares. */
    public static int bodyLength(ByteBuf head) {
        return head.getInt(Wire.LENGTH_OFFSET);
    }
}
