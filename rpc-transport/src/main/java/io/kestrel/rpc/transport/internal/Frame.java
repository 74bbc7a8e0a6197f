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
    /** The body was skipped because the provider's memory budget was full (see {@link MemoryBudget}). */
    public final boolean overBudget;
    /**
     * For a request whose body was skipped (oversized or over budget) and that defines a method:
     * the start of its body, enough to hold the definition, so the method is still defined on the
     * connection; else null.
     */
    public final ByteBuf definitionPrefix;
    /**
     * When the bytes that completed this frame were read, on {@link System#nanoTime()}'s clock (the decoder reads the
     * clock once per socket read); 0 for a frame no decoder made, whose users read the clock themselves.
     */
    long receivedNanos;
    private MemoryBudget budget;
    private long reserved;

    public Frame(byte flags, byte serializationId, byte status, long requestId, int bodyLength, ByteBuf body) {
        this(flags, serializationId, status, requestId, bodyLength, body, false, null);
    }

    Frame(byte flags, byte serializationId, byte status, long requestId, int bodyLength, ByteBuf body,
            boolean overBudget, ByteBuf definitionPrefix) {
        this.definitionPrefix = definitionPrefix;
        this.flags = flags;
        this.serializationId = serializationId;
        this.status = status;
        this.requestId = requestId;
        this.bodyLength = bodyLength;
        this.body = body;
        this.overBudget = overBudget;
    }

    /** {@link #receivedNanos}, or the clock now for a frame no decoder stamped. */
    public long receivedNanos() {
        long t = receivedNanos;
        return t != 0 ? t : System.nanoTime();
    }

    /** Hands this frame the budget bytes taken for it; {@link #done} gives them back. */
    void holdReservation(MemoryBudget budget, long bytes) {
        this.budget = budget;
        this.reserved = bytes;
    }

    /**
     * The request this frame carried is over (answered, or refused): gives back the memory budget
     * taken for it. Idempotent; the body is released separately ({@link #release}).
     */
    public void done() {
        if (reserved > 0) {
            budget.release(reserved);
            reserved = 0;
        }
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
        if (definitionPrefix != null && definitionPrefix.refCnt() > 0) {
            definitionPrefix.release();
        }
    }
}
