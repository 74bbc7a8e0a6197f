package io.kestrel.rpc.transport.internal.stream;

import io.kestrel.rpc.api.RpcException;
import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.serialization.DecodeBudget;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.api.interceptor.StreamListener;
import io.kestrel.rpc.api.stream.CallStreamObserver;
import io.kestrel.rpc.api.stream.StreamCancelledException;
import io.kestrel.rpc.api.stream.StreamLimits;
import io.kestrel.rpc.api.stream.StreamObserver;
import io.kestrel.rpc.transport.internal.Frame;
import io.kestrel.rpc.transport.internal.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.Executor;

/**
 * What the consumer's and the provider's side of a stream share: the credit this side may send with
 * ({@link SendWindow}), and the messages it receives, bounded by the window it granted ({@link ReceiveCredit}),
 * decoded and handed to its receiving observer in order ({@link Inbox}, a read burst's messages in one hand-off),
 * with credit granted back as the observer takes them: half the window at a time, widened for small messages. A
 * peer that sends beyond the credit it was granted, or a message over the limits, gets the stream cancelled.
 */
abstract class StreamSide implements CallStreamObserver<Object> {
    /** The inbox item that ends the receiving observer: completed, or failed with its error. */
    private record End(Throwable error) {
    }

    final SendWindow credit = new SendWindow();
    private final Inbox inbox;
    /** The credit this side grants its peer, and what it counts to enforce it. */
    final ReceiveCredit receiveCredit = new ReceiveCredit(this::othersWaiting);
    /** The receiving observer was told the end (delivery thread only). */
    private boolean receiverEnded;
    /** The decode budget restarted for each message delivered (delivery is one at a time: {@link Inbox}). */
    private DecodeBudget messageBudget;
    volatile StreamObserver<Object> receiver;
    /** What interceptors listen with (see {@link #addListener}). */
    final StreamListeners listeners = new StreamListeners();

    StreamSide(Executor delivery, boolean started) {
        this.inbox = new Inbox(delivery, this::deliver, e -> {
            cancel("the executor delivering its messages refused them (" + e.getMessage() + ")");
            listeners.ended(new StreamCancelledException(what() + ": its messages could not be delivered ("
                    + e.getMessage() + ")"), this);
        }, started);
    }

    /** Where the receiving observer is called. */
    final Executor delivery() {
        return inbox.executor();
    }

    /**
     * {@code listener} sees each message this side sends and receives, and the end: on the consumer after the last
     * message delivered (with the response observer's end), on the provider when the stream ends.
     */
    public final void addListener(StreamListener listener) {
        listeners.add(listener);
    }

    /** The stream id: the request id of the call that opened it. */
    abstract long streamId();

    /** The stream's serialization (the call's). */
    abstract Serializer serializer();

    /** The type of the messages this side receives. */
    abstract Class<?> inboundType();

    /** The stream's name for messages: method and id. */
    abstract String what();

    abstract ByteBufAllocator alloc();

    /** Sends a stream frame of this side (it owns the buffer), after the frames this side queued before it. */
    abstract void write(ByteBuf frame);

    /** Sends a WINDOW frame of this side (it owns the buffer) ahead of the stream data queued: credit never waits. */
    abstract void writeCredit(ByteBuf window);

    /** Whether this is the consumer's side (its frames carry the request flag). */
    abstract boolean consumerSide();

    /** The call's deadline, {@link System#nanoTime()}, 0 for none. */
    abstract long deadlineNanos();

    /** The peer cancelled the stream. */
    abstract void peerCancelled(String reason);

    /** The event loop of the stream's connection, where its frames arrive. */
    abstract EventExecutor loop();


    /**
     * Takes a stream frame of this stream on the event loop.
     *
     * @return true when the frame was queued for the observer (it is released once delivered), false when the caller
     *     releases it
     */
    final boolean onFrame(Frame f) {
        byte ops = f.status;
        if ((ops & StreamFrames.WINDOW) != 0) {
            credit.grant(StreamFrames.credits(f));
        }
        if ((ops & StreamFrames.CANCEL) != 0) {
            peerCancelled(StreamFrames.reason(f));
            return false;
        }
        boolean queued = false;
        if ((ops & StreamFrames.DATA) != 0) {
            if (isCancelled()) {
                return false; // sent before the peer heard the end: nobody takes it
            }
            if (f.oversized() || f.overBudget) {
                cancel("a message of " + f.bodyLength + " bytes arrived " + (f.overBudget
                        ? "while the memory budget was full" : "over the payload limit"));
                return false;
            }
            if (!receiveCredit.receive()) {
                cancel("the peer sent more than the " + receiveCredit.window() + " messages it was granted (-D"
                        + StreamLimits.WINDOW_PROPERTY + " on the receiving side)");
                return false;
            }
            inbox.offerInBurst(f, loop());
            queued = true;
        }
        if ((ops & StreamFrames.HALF_CLOSE) != 0 && consumerSide() == false) {
            inbox.offerInBurst(new End(null), loop()); // the consumer half-closed: the provider's request observer completes
        }
        return queued;
    }

    /** The WINDOW frame granting the peer this side's initial window, counted as granted. */
    final ByteBuf initialWindow() {
        int window = receiveCredit.openAutomatic();
        return StreamFrames.window(alloc(), consumerSide(), serializer().id(), streamId(), window);
    }

    /** The stream opened: grants the peer the initial window, or under manual flow control what was requested. */
    final void grantInitial() {
        int grant = receiveCredit.openManual();
        if (grant < 0) {
            writeCredit(initialWindow());
        } else if (grant > 0) {
            grant(grant);
        }
    }

    @Override
    public void disableAutoRequest() {
        if (!receiveCredit.disableAutoRequest()) {
            throw new IllegalStateException(what() + " is open and granted its window already; call"
                    + " disableAutoRequest before it opens (ClientResponseObserver.beforeStart)");
        }
    }

    @Override
    public final void request(long n) {
        if (n <= 0) {
            throw new IllegalArgumentException("request(" + n + ") on " + what() + ": ask for at least 1 message");
        }
        int grant = receiveCredit.request(n);
        if (grant > 0 && !isCancelled()) {
            grant(grant);
        }
    }

    private void grant(int credits) {
        receiveCredit.granting(credits);
        // off the event loop a plain heap buffer: the connection's pooled allocator costs more on a foreign thread
        ByteBufAllocator heap = inEventLoop() ? alloc() : UnpooledByteBufAllocator.DEFAULT;
        writeCredit(StreamFrames.window(heap, consumerSide(), serializer().id(), streamId(), credits));
    }

    /** The receiving observer ends after what it has not yet seen: completed ({@code error} null) or failed. */
    final void endReceiving(Throwable error) {
        inbox.offer(new End(error));
    }

    /** Starts delivering to the receiving observer set meanwhile (a provider's, once its method returned it). */
    final void startReceiving(StreamObserver<Object> observer) {
        receiver = observer;
        inbox.start();
    }

    /** Releases what was received and will never be delivered (the receiver is gone). */
    final void dropReceived() {
        inbox.drainTo(item -> {
            if (item instanceof Frame f) {
                f.release();
                f.done();
            }
        });
    }

    private void deliver(Object item) {
        StreamObserver<Object> to = receiver;
        if (item instanceof End end) {
            if (consumerSide()) {
                listeners.ended(end.error(), this); // after every message delivered (the provider's end: ServerStream)
            }
            if (!receiverEnded && to != null) {
                receiverEnded = true;
                try {
                    if (end.error() == null) {
                        to.onCompleted();
                    } else {
                        to.onError(end.error());
                    }
                } catch (RuntimeException e) {
                    onObserverFailure(e);
                }
            }
            return;
        }
        Frame f = (Frame) item;
        int bytes = f.bodyLength;
        Object value;
        try {
            if (receiverEnded || to == null) {
                return;
            }
            Serializer serializer = serializer();
            value = Wire.readValue(f.body, f.body.readerIndex(), f.body.readableBytes(), serializer, inboundType(),
                    messageBudget(serializer));
        } catch (RuntimeException e) {
            cancel("a message could not be decoded: " + (e instanceof RpcException ? e.getMessage() : e.toString()));
            endReceiving(e instanceof RpcException ? e : new SerializationException("cannot decode a message of "
                    + what() + ": " + e, e));
            return;
        } finally {
            f.release();
            f.done();
        }
        listeners.received(value, this);
        boolean manual = receiveCredit.delivering();
        try {
            to.onNext(value);
        } catch (RuntimeException e) {
            onObserverFailure(e);
            return;
        }
        int grant = receiveCredit.delivered(manual, bytes);
        if (grant > 0 && !isCancelled()) {
            grant(grant);
        }
    }

    /** This stream's decode budget, started over for the next message (no new budget per message on any thread). */
    private DecodeBudget messageBudget(Serializer serializer) {
        DecodeBudget b = messageBudget;
        if (b == null) {
            b = messageBudget = DecodeBudget.of(serializer.decodeLimits());
        }
        long deadline = deadlineNanos();
        return deadline != 0 ? b.restart(serializer.decodeLimits(), deadline) : b.restart(serializer.decodeLimits());
    }

    private void onObserverFailure(RuntimeException e) {
        cancel("the receiving observer threw " + e);
        if (!receiverEnded) {
            receiverEnded = true;
            try {
                receiver.onError(e);
            } catch (RuntimeException ignored) {
                // it failed twice: nothing more to tell it
            }
        }
    }

    /** Serializes and sends one message once credit allows. */
    final void send(Object value) {
        try {
            credit.take(deadlineNanos(), !inEventLoop(), this::writable, this::what);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RpcException("interrupted while " + what() + " waited for credit to send", e);
        }
        ByteBuf frame;
        try {
            frame = StreamFrames.message(alloc(), consumerSide(), serializer(), streamId(), value, payloadBytes(),
                    this::what);
        } catch (RuntimeException e) {
            credit.grant(1); // not sent: the credit is still ours
            throw e;
        }
        write(frame);
        listeners.sent(value, this);
    }

    abstract int payloadBytes();

    abstract boolean inEventLoop();

    /**
     * Whether unary calls on this stream's connection wait for answers now, behind what this stream has in flight
     * (its window then narrows back; {@link ReceiveCredit}). The provider cannot tell (the consumer's calls that wait
     * behind an upload have not arrived yet): false.
     */
    boolean othersWaiting() {
        return false;
    }

    /** Whether the connection takes more bytes now (the sender waits while it does not). */
    abstract boolean writable();

    @Override
    public boolean isReady() {
        return credit.ready() && writable();
    }
}
