package io.kestrel.rpc.transport.internal;

import io.netty.channel.Channel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.internal.PlatformDependent;
import java.util.Queue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Coalesces writes from many threads: callers enqueue, and one task on the channel's event loop
 * writes everything queued and flushes once per batch, so a burst of N calls costs one syscall
 * instead of N. Ordering is the enqueue order.
 *
 * @param <T> the queued message type, turned into writes by the writer function on the event loop
 */
public final class WriteQueue<T> implements Runnable {
    private static final int MAX_BATCH = 256;

    private final Channel channel;
    private final Consumer<T> writer;
    private final Runnable beforeFlush;
    private final Runnable afterFlush;
    private final Queue<T> queue = PlatformDependent.newMpscQueue();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    /** Holds of {@link #holdFlush} not yet released. */
    private final AtomicInteger holds = new AtomicInteger();

    /**
     * @param writer called on the event loop for each message; it writes (without flushing) and
     *     owns the message's buffers from then on
     */
    public WriteQueue(Channel channel, Consumer<T> writer) {
        this(channel, writer, () -> { });
    }

    /** @param beforeFlush runs on the event loop after each batch's writes, before its flush */
    public WriteQueue(Channel channel, Consumer<T> writer, Runnable beforeFlush) {
        this(channel, writer, beforeFlush, () -> { });
    }

    /** @param afterFlush runs on the event loop after each batch's flush */
    public WriteQueue(Channel channel, Consumer<T> writer, Runnable beforeFlush, Runnable afterFlush) {
        this.channel = channel;
        this.writer = writer;
        this.beforeFlush = beforeFlush;
        this.afterFlush = afterFlush;
    }

    /**
     * Queues {@code message} for the event loop. When the event loop has already shut down (a late answer after
     * the server closed), nothing will ever write it: what is queued is released here instead of leaking.
     */
    public void enqueue(T message) {
        queue.offer(message);
        // held back (see holdFlush) unless queued by the event loop itself (a heartbeat or a refusal)
        if ((holds.get() == 0 || channel.eventLoop().inEventLoop()) && scheduled.compareAndSet(false, true)) {
            schedule();
        }
    }

    private void schedule() {
        try {
            channel.eventLoop().execute(this);
        } catch (RejectedExecutionException terminated) {
            synchronized (this) { // the event loop, the queue's one consumer, is gone: this thread stands in
                drainTo(ReferenceCountUtil::release);
            }
            scheduled.set(false);
        }
    }

    /**
     * Until the matching {@link #releaseFlush}, messages queued by other threads than the event loop do not wake it:
     * a thread about to queue several (a batch of calls' answers) has them written and flushed once.
     */
    public void holdFlush() {
        holds.incrementAndGet();
    }

    /** Ends a {@link #holdFlush}; the last to end schedules the write of what was held back. */
    public void releaseFlush() {
        if (holds.decrementAndGet() == 0 && !queue.isEmpty() && scheduled.compareAndSet(false, true)) {
            schedule();
        }
    }

    @Override
    public void run() {
        try {
            int n = 0;
            T m;
            while ((m = queue.poll()) != null) {
                writer.accept(m);
                if (++n == MAX_BATCH) {
                    beforeFlush.run();
                    channel.flush();
                    afterFlush.run();
                    n = 0;
                }
            }
            beforeFlush.run();
            channel.flush();
            afterFlush.run();
        } finally {
            scheduled.set(false);
            if (!queue.isEmpty() && holds.get() == 0 && scheduled.compareAndSet(false, true)) {
                channel.eventLoop().execute(this);
            }
        }
    }

    /** Removes and returns everything still queued (after the channel closed). Event loop only. */
    public void drainTo(Consumer<T> sink) {
        T m;
        while ((m = queue.poll()) != null) {
            sink.accept(m);
        }
    }
}
