package io.kestrel.rpc.core.reliability;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A growable big-endian byte builder for hand-made frames (no Netty buffers, so nothing to release). */
final class FrameBytes {
    static final int MAGIC = 0x4B52;
    static final int HEADER_BYTES = 18;

    private byte[] bytes = new byte[256];
    private int size;

    FrameBytes reset() {
        size = 0;
        return this;
    }

    int size() {
        return size;
    }

    byte[] array() {
        return bytes;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    private void ensure(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }
    }

    FrameBytes u8(int v) {
        ensure(1);
        bytes[size++] = (byte) v;
        return this;
    }

    FrameBytes u16(int v) {
        return u8(v >>> 8).u8(v);
    }

    FrameBytes u32(int v) {
        return u16(v >>> 16).u16(v);
    }

    FrameBytes u64(long v) {
        return u32((int) (v >>> 32)).u32((int) v);
    }

    FrameBytes raw(byte[] b) {
        return raw(b, 0, b.length);
    }

    FrameBytes raw(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, bytes, size, len);
        size += len;
        return this;
    }

    /** An unsigned LEB128 varint, as {@code Wire.writeVarint} writes it. */
    FrameBytes varint(int v) {
        while ((v & ~0x7F) != 0) {
            u8((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        return u8(v);
    }

    FrameBytes string(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return varint(b.length).raw(b);
    }

    /** A header; the body length is patched by {@link #finishFrame} when {@code bodyLength} is negative. */
    FrameBytes header(int version, int flags, int serializationId, int status, long requestId, int bodyLength) {
        return u16(MAGIC).u8(version).u8(flags).u8(serializationId).u8(status).u64(requestId).u32(bodyLength);
    }

    /** Writes the real body length into the header of the frame that starts at {@code frameStart}. */
    FrameBytes finishFrame(int frameStart) {
        int body = size - frameStart - HEADER_BYTES;
        int at = frameStart + 14;
        bytes[at] = (byte) (body >>> 24);
        bytes[at + 1] = (byte) (body >>> 16);
        bytes[at + 2] = (byte) (body >>> 8);
        bytes[at + 3] = (byte) body;
        return this;
    }
}
