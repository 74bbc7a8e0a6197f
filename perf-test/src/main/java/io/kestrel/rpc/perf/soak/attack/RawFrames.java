package io.kestrel.rpc.perf.soak.attack;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The framework's native frame format, written by hand as a hostile client would (README "Wire
 * format"): an 18-byte header (magic "KR", version 1, flags, serialization id, status, request id,
 * body length), then for a request: varint method reference, the descriptor text if the frame
 * defines the reference, varint timeout, attachments (count, then length-prefixed UTF-8 key and
 * value), varint length of each argument but the last, the arguments.
 */
final class RawFrames {
    static final int HEADER_BYTES = 18;
    static final short MAGIC = 0x4B52;
    static final byte VERSION = 1;
    static final int FLAG_REQUEST = 0x01;
    static final int FLAG_TWO_WAY = 0x02;
    static final int FLAG_EVENT = 0x04;
    static final int FLAG_METHOD_DEF = 0x08;

    private RawFrames() {
    }

    /**
     * The body of a two-way request.
     *
     * @param descriptor the method's descriptor when this request defines {@code methodRef}, else null
     * @param attachment a value sent under the key "pad" (null: no attachment)
     * @param args each argument's serialized bytes
     */
    static byte[] requestBody(int methodRef, String descriptor, int timeoutMillis, String attachment, byte[]... args) {
        ByteArrayOutputStream body = new ByteArrayOutputStream(64 + (attachment == null ? 0 : attachment.length()));
        varint(body, methodRef);
        if (descriptor != null) {
            string(body, descriptor);
        }
        varint(body, timeoutMillis);
        if (attachment == null) {
            varint(body, 0);
        } else {
            varint(body, 1);
            string(body, "pad");
            string(body, attachment);
        }
        for (int i = 0; i < args.length - 1; i++) {
            varint(body, args[i].length);
        }
        for (byte[] a : args) {
            body.writeBytes(a);
        }
        return body.toByteArray();
    }

    /** A request header: flags request and two-way, plus method-definition if {@code defines}. */
    static byte[] requestHeader(byte serializationId, long requestId, int bodyLength, boolean defines) {
        ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES);
        b.putShort(MAGIC).put(VERSION).put((byte) (FLAG_REQUEST | FLAG_TWO_WAY | (defines ? FLAG_METHOD_DEF : 0)))
                .put(serializationId).put((byte) 0).putLong(requestId).putInt(bodyLength);
        return b.array();
    }

    /** Header and body of one request, as one array. */
    static byte[] request(byte serializationId, long requestId, boolean defines, byte[] body) {
        byte[] frame = new byte[HEADER_BYTES + body.length];
        System.arraycopy(requestHeader(serializationId, requestId, body.length, defines), 0, frame, 0, HEADER_BYTES);
        System.arraycopy(body, 0, frame, HEADER_BYTES, body.length);
        return frame;
    }

    /** One frame read back: its flags, status code and, for error statuses, the message text (else null). */
    record Answer(int flags, byte status, long requestId, String message) {
        boolean isEvent() {
            return (flags & FLAG_EVENT) != 0;
        }
    }

    /** Reads one frame; the body is kept as text only for statuses other than OK (20), up to 1000 bytes. */
    static Answer read(DataInputStream in) throws IOException {
        int magic = in.readUnsignedShort();
        if (magic != (MAGIC & 0xFFFF)) {
            throw new IOException(String.format("bad magic 0x%04X in an answer", magic));
        }
        in.readUnsignedByte();
        int flags = in.readUnsignedByte();
        in.readUnsignedByte();
        byte status = in.readByte();
        long id = in.readLong();
        int length = in.readInt();
        String message = null;
        if (status != 20 && (flags & FLAG_EVENT) == 0 && length > 0) {
            byte[] text = new byte[Math.min(length, 1000)];
            in.readFully(text);
            in.skipNBytes(length - text.length);
            message = new String(text, StandardCharsets.UTF_8);
        } else {
            in.skipNBytes(length);
        }
        return new Answer(flags, status, id, message);
    }

    static void varint(ByteArrayOutputStream out, int v) {
        while ((v & ~0x7F) != 0) {
            out.write((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out.write(v);
    }

    static void string(ByteArrayOutputStream out, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        varint(out, b.length);
        out.writeBytes(b);
    }
}
