package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.api.AttachmentLimits;
import io.kestrel.rpc.api.serialization.DecodeBudget;
import io.kestrel.rpc.api.serialization.Serializer;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.CorruptedFrameException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Frame constants and the small encodings used inside frame bodies: unsigned varints and
 * length-prefixed UTF-8 strings.
 */
public final class Wire {
    public static final short MAGIC = (short) 0x4B52; // "KR"
    public static final byte VERSION = 1;
    public static final int HEADER_BYTES = 18;
    public static final int LENGTH_OFFSET = 14;

    public static final byte FLAG_REQUEST = 0x01;
    public static final byte FLAG_TWO_WAY = 0x02;
    public static final byte FLAG_EVENT = 0x04;
    /** Request carries the method descriptor text for its method reference (first use on a connection). */
    public static final byte FLAG_METHOD_DEF = 0x08;
    /** Response body starts with attachments (varint count, {string key, string value}*). */
    public static final byte FLAG_ATTACHMENTS = 0x10;
    /** A stream frame: the status byte holds its operations ({@code internal.stream.StreamFrames}). */
    public static final byte FLAG_STREAM = 0x20;
    /**
     * With {@link #FLAG_STREAM} only: a compact stream DATA frame, whose header is {@link #COMPACT_HEADER_BYTES}
     * long (magic, version, flags, 4-byte stream id, body length: {@code internal.stream.StreamFrames}).
     */
    public static final byte FLAG_COMPACT = 0x40;
    /** Header bytes of a compact stream DATA frame. */
    public static final int COMPACT_HEADER_BYTES = 12;
    /** Where a compact frame's body length is. */
    public static final int COMPACT_LENGTH_OFFSET = 8;

    private Wire() {
    }

    public static void writeHeader(ByteBuf out, byte flags, byte serializationId, byte status, long requestId, int bodyLength) {
        out.writeShort(MAGIC);
        out.writeByte(VERSION);
        out.writeByte(flags);
        out.writeByte(serializationId);
        out.writeByte(status);
        out.writeLong(requestId);
        out.writeInt(bodyLength);
    }

    public static void writeVarint(ByteBuf out, int value) {
        while ((value & ~0x7F) != 0) {
            out.writeByte((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        out.writeByte(value);
    }

    public static int varintSize(int value) {
        int n = 1;
        while ((value & ~0x7F) != 0) {
            n++;
            value >>>= 7;
        }
        return n;
    }

    public static int readVarint(ByteBuf in) {
        int result = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            if (!in.isReadable()) {
                throw new CorruptedFrameException("truncated varint in frame body");
            }
            byte b = in.readByte();
            result |= (b & 0x7F) << shift;
            if (b >= 0) {
                if (result < 0) {
                    throw new CorruptedFrameException("negative varint in frame body");
                }
                return result;
            }
        }
        throw new CorruptedFrameException("varint longer than 5 bytes in frame body");
    }

    /** Writes varint count, then {string key, string value} per attachment. */
    public static void writeAttachments(ByteBuf out, Map<String, String> attachments) {
        writeVarint(out, attachments.size());
        if (attachments.isEmpty()) {
            return; // no entry-set view and iterator for the usual call without attachments
        }
        for (Map.Entry<String, String> e : attachments.entrySet()) {
            writeString(out, e.getKey());
            writeString(out, e.getValue());
        }
    }

    /**
     * Reads what {@link #writeAttachments} wrote, refusing more entries or bytes than
     * {@link AttachmentLimits} allow before reading them.
     *
     * @param what what carries them, for the message ("request", "response")
     * @throws CorruptedFrameException naming the limit and its setting
     */
    public static Map<String, String> readAttachments(ByteBuf in, String what) {
        int n = readVarint(in);
        if (n == 0) {
            return Map.of();
        }
        if (n > AttachmentLimits.maxCount()) {
            throw new CorruptedFrameException(what + " carries " + n + " attachments; at most " + AttachmentLimits.maxCount()
                    + " (-D" + AttachmentLimits.MAX_COUNT_PROPERTY + ")");
        }
        int[] budget = {AttachmentLimits.maxBytes()};
        Map<String, String> m = new HashMap<>(n * 2);
        for (int i = 0; i < n; i++) {
            String key = readAttachmentString(in, budget, what);
            m.put(key, readAttachmentString(in, budget, what));
        }
        return m;
    }

    private static String readAttachmentString(ByteBuf in, int[] budget, String what) {
        int length = readVarint(in);
        if (length > budget[0]) {
            throw new CorruptedFrameException(what + " attachments exceed " + AttachmentLimits.maxBytes() + " bytes (-D"
                    + AttachmentLimits.MAX_BYTES_PROPERTY + ")");
        }
        if (length > in.readableBytes()) {
            throw new CorruptedFrameException("string of " + length + " bytes but only " + in.readableBytes() + " left in frame");
        }
        budget[0] -= length;
        return in.readCharSequence(length, StandardCharsets.UTF_8).toString();
    }

    /**
     * Deserializes the value made of {@code length} bytes of {@code body} from {@code index}, from the
     * frame's own memory: a contiguous body is handed over as a {@link java.nio.ByteBuffer} view (no
     * copy), a composite one through a stream. Leaves {@code body}'s indexes where they were.
     */
    public static Object readValue(ByteBuf body, int index, int length, Serializer serializer, Class<?> type,
            DecodeBudget budget) {
        if (body.nioBufferCount() == 1) {
            return serializer.deserialize(body.nioBuffer(index, length), type, budget);
        }
        return serializer.deserialize(new ByteBufInputStream(body.slice(index, length)), type, budget);
    }

    public static void writeString(ByteBuf out, String s) {
        if (s == null || s.isEmpty()) {
            writeVarint(out, 0);
            return;
        }
        writeVarint(out, ByteBufUtil.utf8Bytes(s));
        out.writeCharSequence(s, StandardCharsets.UTF_8);
    }

    public static String readString(ByteBuf in) {
        return readString(in, Integer.MAX_VALUE);
    }

    /**
     * Reads a string, decoding at most its first {@code maxBytes} bytes (the rest is skipped, and the
     * result says how long it was): for text a peer chooses that ends up in messages and logs.
     */
    public static String readStringCut(ByteBuf in, int maxBytes) {
        int length = readVarint(in);
        if (length < 0 || length > in.readableBytes()) {
            throw new CorruptedFrameException("string of " + length + " bytes but only " + in.readableBytes()
                    + " left in frame");
        }
        if (length <= maxBytes) {
            return in.readCharSequence(length, StandardCharsets.UTF_8).toString();
        }
        String start = in.toString(in.readerIndex(), maxBytes, StandardCharsets.UTF_8);
        in.skipBytes(length);
        return start + "... (" + length + " bytes, cut at " + maxBytes + ")";
    }

    /** Reads a string, refusing one longer than {@code maxBytes} before decoding it. */
    public static String readString(ByteBuf in, int maxBytes) {
        int length = readVarint(in);
        if (length > maxBytes) {
            throw new CorruptedFrameException("string of " + length + " bytes where at most " + maxBytes + " are allowed");
        }
        if (length > in.readableBytes()) {
            throw new CorruptedFrameException("string of " + length + " bytes but only " + in.readableBytes() + " left in frame");
        }
        return in.readCharSequence(length, StandardCharsets.UTF_8).toString();
    }
}
