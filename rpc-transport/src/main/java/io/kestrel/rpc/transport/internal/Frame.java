package io.kestrel.rpc.transport.internal;

import io.netty.buffer.ByteBuf;
import io.netty.util.ReferenceCounted;

/**
 * One decoded frame: the header fields and the body. The body is a retained slice of the read
 * buffer (null when the frame was {@link #oversized()}); whoever takes the frame releases it.
 */
public final class Frame {
    public final byte flags;
    public final byte serializationId;
    public final byte status;
    public final long requestId;
    public final int bodyLength;
    public final ByteBuf body;

    public Frame(byte flags, byte serializationId, byte status, long requestId, int bodyLength, ByteBuf body) {
        this.flags = flags;
        this.serializationId = serializationId;
        this.status = status;
        this.requestId = requestId;
        this.bodyLength = bodyLength;
        this.body = body;
    }

    public boolean isRequest() {
        return (flags & Wire.FLAG_REQUEST) != 0;
    }

    public boolean isTwoWay() {
        return (flags & Wire.FLAG_TWO_WAY) != 0;
    }

    public boolean isEvent() {
        return (flags & Wire.FLAG_EVENT) != 0;
    }

    public boolean hasMethodDef() {
        return (flags & Wire.FLAG_METHOD_DEF) != 0;
    }

    /** The body was larger than the payload limit: it was skipped, never buffered. */
    public boolean oversized() {
        return body == null;
    }

    public void release() {
        if (body != null) {
            ((ReferenceCounted) body).release();
        }
    }
}
