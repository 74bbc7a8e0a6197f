package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.api.ConsumerLimits;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every provider frame decoder holds a connection to, whatever its wire protocol; a protocol's decoder
 * extends this and reads only its own header and body (see {@link ServerPipeline}):
 * <ul>
 *   <li>no frame is decoded while the connection's answers are {@link ResponseQueue#full() full}: the bytes
 *       stay where they are until {@link BackpressureHandler} resumes;</li>
 *   <li>a request's body is taken from the {@link MemoryBudget} as soon as its header is read
 *       ({@link #reserveBody}), from the share for requests still arriving while it arrives, so a peer
 *       trickling bodies holds at most that share; a body that does not fit is skipped, not accumulated;</li>
 *   <li>a frame still incomplete the frame timeout after its first byte closes the connection (the idle timer
 *       alone would let a byte now and then keep it open for ever); what it held goes back to the budget.</li>
 * </ul>
 * A consumer's decoder ({@link FrameDecoder#consumer}, {@code DubboFrameDecoder.consumer}) passes a budget and a
 * timeout but no queue, and takes every frame its provider sends from the budget; its frame timeout fails the
 * connection's calls with the reason ({@link FrameTimeoutException}). One per connection; event loop only.
 */
public abstract class BoundedFrameDecoder extends ByteToMessageDecoder {
    private static final Logger log = LoggerFactory.getLogger(BoundedFrameDecoder.class);
    /** {@link #reserveBody}: the body does not fit in the budget. */
    protected static final long OVER_BUDGET = -1;

    private final MemoryBudget budget;
    private final long frameTimeoutNanos;
    private final ResponseQueue output;
    private final boolean consumer;
    /** Budget taken for the request being received (0: none), from the share for partial ones. */
    private long reservedForPartial;
    /** When the first byte of the frame being received arrived (0: no frame in progress). */
    private long partialSinceNanos;
    private ScheduledFuture<?> frameCheck;
    /** When the bytes being decoded were read ({@link System#nanoTime()}), 0 until a frame of them asks. */
    private long readNanos;

    /**
     * @param budget the memory budget (null: none)
     * @param frameTimeoutMillis a frame still incomplete this long after its first byte closes the connection
     *     (0: no limit)
     * @param output the connection's answers, whose being full stops decoding (null: never stops)
     */
    protected BoundedFrameDecoder(MemoryBudget budget, long frameTimeoutMillis, ResponseQueue output) {
        this(budget, frameTimeoutMillis, output, false);
    }

    /**
     * @param consumer a consumer's decoder (no queue): every frame counts in the budget ({@link #consumer()}), and
     *     the frame timeout fails the connection's calls with a {@link FrameTimeoutException}
     */
    protected BoundedFrameDecoder(MemoryBudget budget, long frameTimeoutMillis, ResponseQueue output,
            boolean consumer) {
        this.budget = budget;
        this.frameTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(frameTimeoutMillis);
        this.output = output;
        this.consumer = consumer;
    }

    /** A consumer's decoder: what its provider sends is all budgeted, answers and events alike. */
    protected final boolean consumer() {
        return consumer;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        readNanos = 0; // new bytes: the clock is read again, once, when a frame of them needs the time
        super.channelRead(ctx, msg);
    }

    /**
     * When the bytes being decoded were read, on {@link System#nanoTime()}'s clock: one clock read per socket read,
     * shared by every frame it completes (a read of a pipelining peer holds hundreds), instead of one per frame.
     */
    protected final long readNanos() {
        long t = readNanos;
        if (t == 0) {
            t = System.nanoTime();
            readNanos = t;
        }
        return t;
    }

    @Override
    protected final void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        if (output != null && !ctx.channel().isActive()) {
            // a closed connection's requests can no longer be answered: drop what was read and not yet decoded
            // (a peer that never read its answers can leave megabytes of requests here, which would otherwise
            // all be decoded and refused on the event loop when the connection closes, stalling its other
            // connections)
            in.skipBytes(in.readableBytes());
            return;
        }
        if (output != null && output.full()) {
            return; // read no more requests of a peer that does not read its answers
        }
        decodeFrame(ctx, in, out);
    }

    /** Decodes at most one frame, as {@link #decode} (called again while it makes progress). */
    protected abstract void decodeFrame(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception;

    /** The budget, for messages (null: none). */
    protected final MemoryBudget budget() {
        return budget;
    }

    /**
     * Takes a request body of {@code bodyLength} from the budget, its header just read. Called again for the
     * same frame while it arrives, with {@code complete} once it has.
     *
     * @return {@link #OVER_BUDGET} when it does not fit (skip the body, refuse the request); else the bytes the
     *     complete frame now holds (give them back when its call is done), 0 while it is still arriving or when
     *     there is no budget
     */
    protected final long reserveBody(int bodyLength, boolean complete) {
        if (budget == null || bodyLength == 0) {
            return 0;
        }
        if (reservedForPartial > 0) {
            if (!complete) {
                return 0;
            }
            long held = reservedForPartial;
            budget.completed(held);
            reservedForPartial = 0;
            return held;
        }
        if (complete) {
            return budget.tryAcquire(bodyLength) ? bodyLength : OVER_BUDGET;
        }
        if (budget.tryAcquirePartial(bodyLength)) {
            reservedForPartial = bodyLength;
            return 0;
        }
        return OVER_BUDGET;
    }

    /** A frame has begun and is not complete: starts its clock if it is the first call for it. */
    protected final void partial(ChannelHandlerContext ctx) {
        if (frameTimeoutNanos == 0 || partialSinceNanos != 0) {
            return;
        }
        partialSinceNanos = readNanos();
        if (frameCheck == null) {
            frameCheck = ctx.executor().schedule(() -> checkFrame(ctx), frameTimeoutNanos, TimeUnit.NANOSECONDS);
        }
    }

    /** A frame's body is being skipped: its clock runs while {@code remaining} bytes of it are still to come. */
    protected final void skipping(ChannelHandlerContext ctx, long remaining) {
        if (remaining > 0) {
            partial(ctx);
        } else {
            frameDone();
        }
    }

    /** The frame in progress is complete (or was skipped to its end). */
    protected final void frameDone() {
        partialSinceNanos = 0;
    }

    /** Closes the connection if the frame in progress began more than the frame timeout ago. */
    private void checkFrame(ChannelHandlerContext ctx) {
        frameCheck = null;
        long since = partialSinceNanos;
        if (since == 0 || !ctx.channel().isActive()) {
            return;
        }
        long age = System.nanoTime() - since;
        if (age >= frameTimeoutNanos) {
            frameTimedOut(ctx, TimeUnit.NANOSECONDS.toMillis(age), TimeUnit.NANOSECONDS.toMillis(frameTimeoutNanos));
        } else {
            frameCheck = ctx.executor().schedule(() -> checkFrame(ctx), frameTimeoutNanos - age, TimeUnit.NANOSECONDS);
        }
    }

    /**
     * The frame in progress began {@code ageMillis} ago, past the frame timeout: a provider's side logs it and
     * closes the connection; a consumer's tells its connection why (whose handler logs it and fails its calls
     * with the reason) and closes it.
     */
    private void frameTimedOut(ChannelHandlerContext ctx, long ageMillis, long timeoutMillis) {
        if (consumer) {
            ctx.fireExceptionCaught(new FrameTimeoutException("a response frame begun " + ageMillis
                    + " ms ago is still incomplete (frame timeout " + timeoutMillis + " ms, -D"
                    + ConsumerLimits.FRAME_TIMEOUT_PROPERTY + "): the provider sends too slowly"
                    + " or holds a frame half sent"));
            ctx.close();
            return;
        }
        log.warn("Closing connection from {}: a frame begun {} ms ago is still incomplete (frame-timeout {} ms)",
                ctx.channel().remoteAddress(), ageMillis, timeoutMillis);
        ctx.close();
    }

    @Override
    protected final void handlerRemoved0(ChannelHandlerContext ctx) {
        if (reservedForPartial > 0) {
            budget.releasePartial(reservedForPartial);
            reservedForPartial = 0;
        }
        if (frameCheck != null) {
            frameCheck.cancel(false);
            frameCheck = null;
        }
        removed();
    }

    /** The decoder leaves the pipeline (the connection closed): release what the protocol's decoder holds. */
    protected void removed() {
    }
}
