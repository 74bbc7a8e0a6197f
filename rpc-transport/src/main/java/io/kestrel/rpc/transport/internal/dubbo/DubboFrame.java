package io.kestrel.rpc.transport.internal.dubbo;

import io.netty.buffer.ByteBuf;

/**
 * One frame of the dubbo protocol as {@link DubboFrameDecoder} read it: the header's fields and the body
 * (null when it was skipped: over the payload limit or the memory budget). The receiver releases the body.
 */
final class DubboFrame {
    final byte flags;
    final byte status;
    final long requestId;
    final int bodyLength;
    /** The body, or null when it was skipped. */
    ByteBuf body;
    /** Bytes of the memory budget this frame holds (0: none). */
    final long reserved;
    /** Why the body was skipped (null: it was not). */
    final String skippedBecause;
    /** The status to answer a skipped request with. */
    final byte skippedStatus;

    DubboFrame(byte flags, byte status, long requestId, int bodyLength, ByteBuf body, long reserved,
            String skippedBecause, byte skippedStatus) {
        this.flags = flags;
        this.status = status;
        this.requestId = requestId;
        this.bodyLength = bodyLength;
        this.body = body;
        this.reserved = reserved;
        this.skippedBecause = skippedBecause;
        this.skippedStatus = skippedStatus;
    }

    boolean isRequest() {
        return (flags & DubboWire.FLAG_REQUEST) != 0;
    }

    boolean isTwoWay() {
        return (flags & DubboWire.FLAG_TWO_WAY) != 0;
    }

    boolean isEvent() {
        return (flags & DubboWire.FLAG_EVENT) != 0;
    }

    /** Dubbo's serialization id, the low 5 bits of the flags. */
    byte serializationId() {
        return (byte) (flags & DubboWire.SERIALIZATION_MASK);
    }

    void release() {
        if (body != null) {
            body.release();
            body = null;
        }
    }
}
