package io.kestrel.rpc.transport.internal.stream;

import io.kestrel.rpc.api.PayloadTooLargeException;
import io.kestrel.rpc.api.RpcException;
import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.transport.internal.Frame;
import io.kestrel.rpc.transport.internal.FrameOutput;
import io.kestrel.rpc.transport.internal.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.util.concurrent.FastThreadLocal;
import java.util.function.Supplier;

/**
 * The stream frames: the native header with flag {@link Wire#FLAG_STREAM}, the stream id (the request id of the
 * call that opened the stream) in the request id field and the frame's operations in the status byte; and the
 * compact DATA frame, which carries one message with 12 bytes of header.
 *
 * <pre>
 *  0       2     3     4     5      6               14              18
 *  +-------+-----+-----+-----+------+---------------+---------------+-------------------+
 *  | magic | ver |flags| ser | ops  |   stream id   |  body length  |  body             |
 *  +-------+-----+-----+-----+------+---------------+---------------+-------------------+
 *  flags: 0x20 stream, | 0x01 when the consumer sends it
 *  ops:   0x01 DATA        body: one message, serialized with the stream's serialization (ser)
 *         0x02 HALF_CLOSE  the consumer sends no more messages (no body; may share a frame with DATA)
 *         0x04 CANCEL      the sender gives up the stream; body: varint length + UTF-8 reason (may be empty)
 *         0x08 WINDOW      body: 4-byte big-endian credits, &gt; 0: messages the receiver takes on top of those
 *                          it granted before
 *
 *  compact DATA (flags 0x60, | 0x01 from the consumer), sent for every stream id below 2^32:
 *  0       2     3     4              8              12
 *  +-------+-----+-----+--------------+--------------+-------------------+
 *  | magic | ver |flags|  stream id   | body length  |  one message      |
 *  +-------+-----+-----+--------------+--------------+-------------------+
 *  stream id: unsigned 4 bytes; the operation is DATA and the serialization the stream's (the opening call's)
 * </pre>
 *
 * Why a compact header rather than several messages per frame: every message costs 12 bytes whether it is sent
 * alone or in a burst, the decoder still reads one message per frame (the memory budget is taken from the header
 * and the payload limit applies to the message as before, with no length inside the body to check), and one DATA
 * frame stays one credit.
 *
 * <p>The request that opens a stream is an ordinary request frame and the provider ends a stream with an ordinary
 * response frame (OK: completed; SERVICE_ERROR: the provider's exception; any other status); neither changes.
 */
public final class StreamFrames {
    public static final byte DATA = 0x01;
    public static final byte HALF_CLOSE = 0x02;
    public static final byte CANCEL = 0x04;
    public static final byte WINDOW = 0x08;
    /** Bytes of a cancel reason sent or read, at most. */
    static final int MAX_REASON_BYTES = 1024;

    private StreamFrames() {
    }

    /** Whether {@code f} is a stream frame. */
    public static boolean isStream(Frame f) {
        return (f.flags & Wire.FLAG_STREAM) != 0;
    }

    /**
     * Per sending thread: the heap buffer a message is serialized into first (see {@link #data}). A thread has at
     * most one, of {@value FrameOutput#FIRST_BUFFER_BYTES} bytes. A {@code FastThreadLocal}: on the framework's own
     * threads (business workers, event loops) an array slot, where a {@code ThreadLocal}'s lookup was 5% of a feeding
     * thread's CPU.
     */
    private static final FastThreadLocal<ByteBuf> SCRATCH = new FastThreadLocal<>();

    /**
     * A DATA frame carrying {@code value}: compact (12-byte header) when the stream id fits 4 bytes, as every id
     * of a connection's first 4 billion calls does, else the full 18-byte header.
     *
     * <p>The message is serialized into a heap buffer this thread reuses, and a small frame leaves as a copy of
     * exactly its bytes (a byte array, which the event loop copies into the buffer it gathers a batch's frames in,
     * see {@code WriteCoalescer}): a pooled direct buffer taken and given back per message by a thread that is not
     * the event loop cost more than the message. A larger message continues in pooled buffers ({@link FrameOutput}).
     *
     * @throws RuntimeException what the serializer threw (nothing is left allocated)
     */
    public static ByteBuf data(ByteBufAllocator alloc, boolean fromConsumer, Serializer serializer, long streamId,
            Object value) {
        boolean compact = fitsCompact(streamId);
        int headerBytes = compact ? Wire.COMPACT_HEADER_BYTES : Wire.HEADER_BYTES;
        ByteBuf scratch = SCRATCH.get();
        if (scratch == null) {
            scratch = Unpooled.buffer(FrameOutput.FIRST_BUFFER_BYTES, FrameOutput.FIRST_BUFFER_BYTES);
            SCRATCH.set(scratch);
        }
        scratch.clear().retain(); // one reference for the output, which releases it when it moves on; one stays ours
        scratch.writerIndex(headerBytes);
        FrameOutput out = new FrameOutput(alloc, scratch);
        ByteBuf frame;
        try {
            serializer.serialize(value, out);
            frame = out.finish();
        } catch (RuntimeException e) {
            out.release(); // the scratch buffer keeps our reference
            throw e;
        }
        int end = frame.writerIndex();
        frame.writerIndex(0);
        if (compact) {
            frame.writeShort(Wire.MAGIC);
            frame.writeByte(Wire.VERSION);
            frame.writeByte(flags(fromConsumer) | Wire.FLAG_COMPACT);
            frame.writeInt((int) streamId);
            frame.writeInt(end - headerBytes);
        } else {
            Wire.writeHeader(frame, flags(fromConsumer), serializer.id(), DATA, streamId, end - headerBytes);
        }
        frame.writerIndex(end);
        if (frame == scratch) {
            byte[] bytes = new byte[end];
            scratch.getBytes(0, bytes);
            scratch.release(); // the output's reference: the scratch is this thread's again
            return Unpooled.wrappedBuffer(bytes);
        }
        // moved to a larger buffer (the output released the scratch) or chained behind it (the frame holds it)
        SCRATCH.remove();
        scratch.release();
        return frame;
    }

    /**
     * {@link #data} for a stream's sender: what the serializer threw becomes a {@link SerializationException}, a
     * message over {@code payloadBytes} a {@link PayloadTooLargeException}; either way nothing is sent or kept.
     *
     * @param what the stream, for messages (named only when one is made)
     */
    static ByteBuf message(ByteBufAllocator alloc, boolean fromConsumer, Serializer serializer, long streamId,
            Object value, int payloadBytes, Supplier<String> what) {
        ByteBuf frame;
        try {
            frame = data(alloc, fromConsumer, serializer, streamId, value);
        } catch (RuntimeException e) {
            throw e instanceof RpcException r ? r : new SerializationException("cannot serialize a message of "
                    + what.get() + " with " + serializer.name() + ": " + e, e);
        }
        int body = messageBytes(frame);
        if (body > payloadBytes) {
            frame.release();
            throw new PayloadTooLargeException("a message of " + what.get() + " is " + body
                    + " bytes, over the payload limit of " + payloadBytes + " bytes; it was not sent");
        }
        return frame;
    }

    /** The message bytes of a frame {@link #data} made. */
    static int messageBytes(ByteBuf dataFrame) {
        boolean compact = (dataFrame.getByte(dataFrame.readerIndex() + 3) & Wire.FLAG_COMPACT) != 0;
        return dataFrame.readableBytes() - (compact ? Wire.COMPACT_HEADER_BYTES : Wire.HEADER_BYTES);
    }

    /** Whether a DATA frame of this stream has the compact header (its id is an unsigned 4-byte number). */
    static boolean fitsCompact(long streamId) {
        return streamId >= 0 && streamId <= 0xFFFF_FFFFL;
    }

    /** The consumer's half-close. */
    public static ByteBuf halfClose(ByteBufAllocator alloc, byte serializationId, long streamId) {
        ByteBuf frame = alloc.ioBuffer(Wire.HEADER_BYTES);
        Wire.writeHeader(frame, flags(true), serializationId, HALF_CLOSE, streamId, 0);
        return frame;
    }

    /** A cancel with its reason (cut at {@value #MAX_REASON_BYTES} bytes). */
    public static ByteBuf cancel(ByteBufAllocator alloc, boolean fromConsumer, byte serializationId, long streamId,
            String reason) {
        String cut = reason == null ? "" : reason.length() > MAX_REASON_BYTES / 4 ? reason.substring(0,
                MAX_REASON_BYTES / 4) : reason;
        ByteBuf frame = alloc.ioBuffer(Wire.HEADER_BYTES + 8 + cut.length() * 3);
        frame.writerIndex(Wire.HEADER_BYTES);
        Wire.writeString(frame, cut);
        int end = frame.writerIndex();
        frame.writerIndex(0);
        Wire.writeHeader(frame, flags(fromConsumer), serializationId, CANCEL, streamId, end - Wire.HEADER_BYTES);
        frame.writerIndex(end);
        return frame;
    }

    /**
     * A window update granting {@code credits} more messages, in a heap buffer of {@code alloc}: 22 bytes, which the
     * event loop copies with its neighbours when it writes them; a receiver grants from its delivery thread, where a
     * pooled direct buffer costs more than the frame is worth.
     */
    public static ByteBuf window(ByteBufAllocator alloc, boolean fromConsumer, byte serializationId, long streamId,
            int credits) {
        ByteBuf frame = alloc.heapBuffer(Wire.HEADER_BYTES + 4);
        Wire.writeHeader(frame, flags(fromConsumer), serializationId, WINDOW, streamId, 4);
        frame.writeInt(credits);
        return frame;
    }

    /** The credits a WINDOW frame grants. */
    static int credits(Frame f) {
        if (f.body == null || f.body.readableBytes() != 4) {
            throw new CorruptedFrameException("stream window frame with a body of " + f.bodyLength
                    + " bytes; it has 4");
        }
        int credits = f.body.getInt(f.body.readerIndex());
        if (credits <= 0) {
            throw new CorruptedFrameException("stream window frame granting " + credits + " credits; it grants > 0");
        }
        return credits;
    }

    /** The reason a CANCEL frame gives (cut to a bounded length). */
    static String reason(Frame f) {
        if (f.body == null || !f.body.isReadable()) {
            return "no reason given";
        }
        try {
            return Wire.readStringCut(f.body, MAX_REASON_BYTES);
        } catch (CorruptedFrameException e) {
            return "unreadable reason";
        }
    }

    private static byte flags(boolean fromConsumer) {
        return (byte) (Wire.FLAG_STREAM | (fromConsumer ? Wire.FLAG_REQUEST : 0));
    }
}
