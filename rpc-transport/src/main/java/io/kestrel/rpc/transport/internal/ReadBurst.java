package io.kestrel.rpc.transport.internal;

import io.netty.channel.ChannelHandlerContext;
import java.util.concurrent.RejectedExecutionException;

/**
 * The business-pool calls one connection's event loop decoded in one go (a read burst), collected and handed to the
 * pool together once the event loop has run out of what it read: a single call as it is, several as one
 * {@link CallBatch} (at most {@link CallBatch#MAX_CALLS} each). The hand-over is a task the event loop runs after the
 * reads it is processing, so it does not depend on a read-complete event. One per connection; event loop only.
 */
final class ReadBurst implements Runnable {
    private final RequestHandler requests;
    private final Admission admission;
    private final ResponseWriter out;
    private final ServerCall[] calls = new ServerCall[CallBatch.MAX_CALLS];
    private int size;
    private ChannelHandlerContext ctx;
    /** With {@link CallBatch#JOIN}: the last batch handed over, which later calls may join. */
    private CallBatch running;

    ReadBurst(RequestHandler requests, Admission admission, ResponseWriter out) {
        this.requests = requests;
        this.admission = admission;
        this.out = out;
    }

    /** Adds a call admitted on this connection (the per-connection cap counted it). */
    void add(ChannelHandlerContext ctx, ServerCall call) {
        if (running != null && size == 0) {
            if (running.join(call)) {
                return; // the connection's batch still runs: its worker takes this call too, no wake-up
            }
            running = null;
        }
        if (size == calls.length) {
            handOver();
        }
        calls[size++] = call;
        if (size == 1) {
            this.ctx = ctx;
            try {
                ctx.executor().execute(this); // after the reads in progress: the whole burst at once
            } catch (RejectedExecutionException shuttingDown) {
                handOver(); // no later task will run: now
            }
        }
    }

    /** On the event loop, after the reads of the burst: hands what was collected to the pool. */
    @Override
    public void run() {
        if (size > 0) {
            handOver();
        }
    }

    private void handOver() {
        int n = size;
        size = 0;
        if (n == 1 && !CallBatch.JOIN) {
            ServerCall call = calls[0];
            calls[0] = null;
            if (!admission.submit(call)) {
                requests.refuseBusy(ctx, call);
            }
            return;
        }
        CallBatch batch = CallBatch.submit(calls, n, out, admission, ctx.channel().eventLoop());
        boolean taken = batch != null;
        running = CallBatch.JOIN ? batch : null;
        for (int i = 0; i < n; i++) {
            if (!taken) {
                requests.refuseBusy(ctx, calls[i]);
            }
            calls[i] = null;
        }
    }
}
