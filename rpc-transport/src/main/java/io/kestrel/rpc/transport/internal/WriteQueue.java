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
 * instead of N. Ordering is the enqueue order within each of two queues: {@linkplain #enqueueUrgent urgent}
 * messages (calls, unary answers and refusals, credit frames, heartbeats) go before ordinary ones (stream data and
 * what must follow it), and a run writes at most {@value #MAX_BATCH} ordinary messages before it flushes and
 * queues itself again behind the event loop's other work and its next reads (a task scheduled with no delay, which
 * the loop runs after polling its sockets): an urgent message waits for at most one such batch, never for a whole
 * backlog of stream data, and neither does what the connection has to read (a call, credit, a unary answer), which
 * a queue of tasks that never empties would hold back until the sender ran out of credit. An urgent message queued
 * before an ordinary one is written before it (a call before its stream's data).
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
    private final Queue<T> urgent = PlatformDependent.newMpscQueue();
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
        enqueue(queue, message);
    }

    /** As {@link #enqueue}, written before the ordinary messages still queued (see the class comment). */
    public void enqueueUrgent(T message) {
        enqueue(urgent, message);
    }

    private void enqueue(Queue<T> to, T message) {
        to.offer(message);
        // held back (see holdFlush) unless queued by the event loop itself (a heartbeat or a refusal); a run already
        // scheduled takes it (looked at before the compare-and-set, which would fight the event loop for the flag)
        if ((holds.get() == 0 || channel.eventLoop().inEventLoop()) && !scheduled.get()
                && scheduled.compareAndSet(false, true)) {
            schedule();
        }
    }

    /**
     * Runs this on the event loop. Once the loop is gone, this thread stands in for it and releases what is queued,
     * again while messages queued meanwhile (their threads saw the run scheduled and left them to it).
     */
    private void schedule() {
        do {
            try {
                channel.eventLoop().execute(this);
                return;
            } catch (RejectedExecutionException terminated) {
                synchronized (this) { // the event loop, the queue's one consumer, is gone
                    drainTo(ReferenceCountUtil::release);
                }
                scheduled.set(false);
            }
        } while (!isEmpty() && scheduled.compareAndSet(false, true));
    }

    private boolean isEmpty() {
        return queue.isEmpty() && urgent.isEmpty();
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
        if (holds.decrementAndGet() == 0 && !isEmpty() && scheduled.compareAndSet(false, true)) {
            schedule();
        }
    }

    @Override
    public void run() {
        int n = 0;
        try {
            for (; n < MAX_BATCH; n++) {
                boolean more = queue.peek() != null; // what is urgent now was queued before it: written first
                drainTo(urgent, writer);
                if (!more) {
                    break;
                }
                writer.accept(queue.poll());
            }
            beforeFlush.run();
            channel.flush();
            afterFlush.run();
        } finally {
            scheduled.set(false);
            if (!isEmpty() && holds.get() == 0 && scheduled.compareAndSet(false, true)) {
                // after a full batch the next run waits for the loop's reads; cancelled by a shutdown, it is queued
                // as an ordinary task, which the shutdown still runs (once the loop is gone, schedule releases)
                if (n < MAX_BATCH || !EventLoops.runAfterReads(channel.eventLoop(), this, this::schedule)) {
                    schedule(); // behind the tasks queued meanwhile
                }
            }
        }
    }

    /** Removes and returns everything still queued (after the channel closed). Event loop only. */
    public void drainTo(Consumer<T> sink) {
        drainTo(urgent, sink);
        drainTo(queue, sink);
    }

    private static <T> void drainTo(Queue<T> from, Consumer<T> sink) {
        T m;
        while ((m = from.poll()) != null) {
            sink.accept(m);
        }
    }
}
