package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.transport.TransportCounters;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.DefaultChannelPromise;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every frame a provider connection sends, whatever its protocol (answers, error answers, heartbeat answers,
 * notices), from being queued until the socket took it: written through one {@link WriteQueue} (any thread may
 * answer; one flush per batch) and counted, bytes plus {@value #FRAME_OVERHEAD} for the objects that hold a
 * frame on its way, in the connection's pending output and in the provider's {@link MemoryBudget}.
 *
 * <p>The connection is {@link #full()} while its pending output is at or over its write buffer, or while it has
 * any pending output and the provider's budget is spent: then no more of its requests are decoded or read (see
 * {@link BackpressureHandler}), so a peer that does not read what it asked for cannot make the provider hold
 * more. Once the pending output falls below half the write buffer, or to nothing, the drain listener runs on the
 * event loop. One per connection.
 */
public final class ResponseQueue {
    /**
     * Heap a queued frame costs beyond its bytes: the buffer object, the queue's node and the outbound buffer's
     * entry (Netty counts 96 bytes for the last alone). A flood of tiny answers (17-byte heartbeats) costs
     * mostly this.
     */
    static final int FRAME_OVERHEAD = 128;

    private final Channel channel;
    private final WriteQueue<ByteBuf> queue;
    private final MemoryBudget budget;
    private final long highWater;
    private final long lowWater;
    private final AtomicLong pending = new AtomicLong();
    private long batchCost; // of the batch being written; event loop only
    private Runnable onDrained = () -> { };

    /**
     * @param budget the provider's budget (null: none)
     * @param writeBufferBytes pending output at which the connection is full
     */
    public ResponseQueue(Channel channel, TransportCounters counters, MemoryBudget budget, long writeBufferBytes) {
        this.channel = channel;
        this.budget = budget;
        this.highWater = writeBufferBytes;
        this.lowWater = writeBufferBytes / 2;
        WriteCoalescer coalescer = new WriteCoalescer(channel);
        this.queue = new WriteQueue<>(channel, buf -> {
            counters.frameWritten();
            batchCost += cost(buf);
            coalescer.write(buf);
        }, coalescer::writeGathered, this::endBatch);
    }

    /** Queues a complete frame; the queue owns it from now on. Any thread. */
    public void enqueue(ByteBuf frame) {
        enqueue(frame, false);
    }

    /**
     * Queues a complete frame, {@code urgent}: ahead of the ordinary frames still queued (a unary answer, a heartbeat
     * answer, a credit frame; see {@link WriteQueue}). The queue owns it from now on. Any thread.
     */
    public void enqueue(ByteBuf frame, boolean urgent) {
        long cost = cost(frame);
        if (budget != null) {
            budget.forceAcquire(cost); // memory already in use: counted whether it fits or not
        }
        pending.addAndGet(cost);
        if (urgent) {
            queue.enqueueUrgent(frame);
        } else {
            queue.enqueue(frame);
        }
    }

    /** See {@link WriteQueue#holdFlush}. */
    void holdFlush() {
        queue.holdFlush();
    }

    /** See {@link WriteQueue#releaseFlush}. */
    void releaseFlush() {
        queue.releaseFlush();
    }

    /** Whether no more requests of this connection should be read until its output drains. */
    public boolean full() {
        long p = pending.get();
        return p >= highWater || p > 0 && budget != null && budget.used() >= budget.limit();
    }

    /** Bytes (with their overhead) queued or not yet taken by the socket. */
    public long pending() {
        return pending.get();
    }

    /** Runs {@code listener} on the event loop each time the pending output drains (see the class comment). */
    public void onDrained(Runnable listener) {
        this.onDrained = listener;
    }

    private static long cost(ByteBuf frame) {
        return frame.readableBytes() + FRAME_OVERHEAD;
    }

    /**
     * After a batch of frames is flushed: when the socket took all of it (the usual case) its cost is given back
     * at once; otherwise one promise written behind the batch gives it back once the last of them is written
     * (writes complete in order; on a failure all of them fail), rather than a promise and a listener per frame.
     */
    private void endBatch() {
        long cost = batchCost;
        batchCost = 0;
        if (cost == 0) {
            return;
        }
        ChannelOutboundBuffer unsent = channel.unsafe().outboundBuffer();
        if (unsent == null || unsent.totalPendingWriteBytes() == 0) {
            written(cost); // written, or failed with the closed channel: nothing of the batch is held any more
        } else {
            channel.writeAndFlush(Unpooled.EMPTY_BUFFER, new Written(channel, this, cost));
        }
    }

    private void written(long cost) {
        if (budget != null) {
            budget.release(cost);
        }
        long now = pending.addAndGet(-cost);
        if (now == 0 || now < lowWater && now + cost >= lowWater) {
            onDrained.run();
        }
    }

    /** Gives a batch's cost back once written (or failed to write). */
    private static final class Written extends DefaultChannelPromise implements ChannelFutureListener {
        private final ResponseQueue output;
        private final long cost;

        Written(Channel channel, ResponseQueue output, long cost) {
            super(channel);
            this.output = output;
            this.cost = cost;
            addListener(this);
        }

        @Override
        public void operationComplete(ChannelFuture future) {
            output.written(cost);
        }
    }
}
