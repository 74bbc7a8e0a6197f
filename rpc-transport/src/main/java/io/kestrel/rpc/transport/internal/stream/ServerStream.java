package io.kestrel.rpc.transport.internal.stream;

import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.api.stream.StreamCancelledException;
import io.kestrel.rpc.api.stream.StreamObserver;
import io.kestrel.rpc.transport.spi.RefusedException;
import io.kestrel.rpc.transport.spi.ServerMethod;
import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.internal.Frame;
import io.kestrel.rpc.transport.internal.ResponseWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.Executor;

/**
 * The provider's side of one stream: the response observer its method receives (each message a DATA frame sent
 * within the consumer's credit; {@code onCompleted}/{@code onError} the ordinary response that ends the call), and
 * for a method that takes a stream of requests, the consumer's messages delivered to the observer the method
 * returned. Ends once: completed, failed, cancelled by either side, or its connection closed; then it leaves its
 * connection's table and a sender waiting for credit stops waiting.
 */
public final class ServerStream extends StreamSide {
    private final Frame open;
    private final ServerMethod method;
    private final Serializer serializer;
    private final ResponseWriter out;
    private final Channel channel;
    private final ServerStreams table;
    private final long deadlineNanos;
    private final int payloadBytes;
    private volatile String endedBecause;
    /** The method returned: its request stream was granted its credit (see {@link #disableAutoRequest}). */
    private volatile boolean returned;
    /** The consumer's idle timer ({@code stream-idle-timeout}), null when off or without a request stream. */
    private StreamIdleTimer idle;

    ServerStream(Frame open, ServerMethod method, Serializer serializer, ResponseWriter out, Channel channel,
            ServerStreams table, long deadlineNanos, int payloadBytes, Executor delivery) {
        super(delivery, false);
        this.open = open;
        this.method = method;
        this.serializer = serializer;
        this.out = out;
        this.channel = channel;
        this.table = table;
        this.deadlineNanos = deadlineNanos;
        this.payloadBytes = payloadBytes;
    }

    /** The method returned (or its stage completed with) {@code result}: a request stream's observer starts here. */
    public void started(Object result) {
        returned = true;
        if (!method.stream().bidirectional()) {
            return;
        }
        if (!(result instanceof StreamObserver<?> observer)) {
            onError(new IllegalStateException(method.displayName() + " returned " + (result == null ? "null"
                    : result.getClass().getName()) + " instead of the observer of its request stream"));
            return;
        }
        @SuppressWarnings("unchecked")
        StreamObserver<Object> requests = (StreamObserver<Object>) observer;
        startReceiving(requests);
        if (endedBecause != null) {
            endReceiving(new StreamCancelledException(what() + " is over: " + endedBecause));
        } else {
            grantInitial(); // its window, or under manual flow control what the method requested so far
        }
    }

    /**
     * Manual flow control of the request stream, as grpc-java's {@code ServerCallStreamObserver}: allowed in the
     * method, before it returns (the consumer is granted its first window then).
     */
    @Override
    public void disableAutoRequest() {
        if (!method.stream().bidirectional()) {
            throw new UnsupportedOperationException(method.displayName() + " is server streaming: its provider"
                    + " receives no stream of messages to request (client and bidirectional streaming methods do)");
        }
        if (returned) {
            throw new IllegalStateException("disableAutoRequest on " + what() + " after the method returned: its"
                    + " consumer was granted its window then; call it in the method, before it returns");
        }
        super.disableAutoRequest();
    }

    /** Starts the consumer's idle timer (event loop, as the stream opens). */
    void watchIdle(long timeoutMillis) {
        idle = new StreamIdleTimer(this, channel.eventLoop(), timeoutMillis);
        idle.start();
    }

    /** A frame of the consumer on this stream (event loop): its idle clock restarts. */
    void consumerSent(Frame f) {
        StreamIdleTimer timer = idle;
        if (timer != null) {
            timer.consumerSent(f);
        }
    }

    /** The call was refused or failed before its method ran: the stream never started. */
    public void notStarted() {
        if (end("it did not start")) {
            dropReceived();
        }
    }

    @Override
    public void onNext(Object value) {
        String ended = endedBecause;
        if (ended != null) {
            throw new StreamCancelledException(what() + " is over (" + ended + "); the message was not sent");
        }
        send(value);
    }

    @Override
    public void onCompleted() {
        if (end("completed by the provider", null)) {
            out.value(open, method, serializer, null);
            endReceiving(null);
        }
    }

    @Override
    public void onError(Throwable error) {
        if (!end("ended by the provider with " + error, error)) {
            return;
        }
        if (error instanceof RefusedException r) {
            out.streamError(open, r.status(), r.getMessage());
        } else if (error instanceof RpcTimeoutException && deadlineNanos != 0
                && System.nanoTime() - deadlineNanos >= 0) {
            // the caller's deadline: a timeout there too
            out.streamError(open, Status.SERVER_TIMEOUT, error.getMessage());
        } else {
            out.exception(open, method, serializer, error);
        }
        endReceiving(new StreamCancelledException(what() + " was ended by the provider with " + error));
    }

    @Override
    public void cancel(String reason) {
        if (end("cancelled by the provider: " + reason)) {
            write(StreamFrames.cancel(alloc(), false, serializer.id(), open.requestId, reason));
            endReceiving(new StreamCancelledException(what() + " was cancelled by the provider: " + reason));
        }
    }

    @Override
    void peerCancelled(String reason) {
        if (end("cancelled by the consumer: " + reason)) {
            endReceiving(new StreamCancelledException(what() + " was cancelled by the consumer: " + reason));
        }
    }

    /** The connection closed: nothing more is sent or received. */
    void connectionClosed() {
        if (end("its connection closed")) {
            endReceiving(new StreamCancelledException(what() + " ended: the connection to the consumer closed"));
        }
    }

    /** Ends the stream as cancelled ({@code why}); false when it had ended already. */
    private boolean end(String why) {
        return end(why, new StreamCancelledException(what() + " ended: " + why));
    }

    /** Ends the stream; its listeners hear {@code error} (null: completed). False when it had ended already. */
    private boolean end(String why, Throwable error) {
        synchronized (this) {
            if (endedBecause != null) {
                return false;
            }
            endedBecause = why;
        }
        listeners.ended(error, this);
        if (idle != null) {
            idle.stop();
        }
        credit.close(why);
        table.remove(open.requestId, this);
        if (receiver == null) {
            dropReceived(); // no request observer (yet): what arrived is never delivered
        }
        return true;
    }

    @Override
    public boolean isCancelled() {
        return endedBecause != null;
    }

    @Override
    long streamId() {
        return open.requestId;
    }

    @Override
    Serializer serializer() {
        return serializer;
    }

    @Override
    Class<?> inboundType() {
        Class<?> t = method.stream().requestType();
        return t == null ? Object.class : t;
    }

    @Override
    String what() {
        return "stream " + open.requestId + " of " + method.displayName();
    }

    @Override
    EventExecutor loop() {
        return channel.eventLoop();
    }

    @Override
    ByteBufAllocator alloc() {
        return channel.alloc();
    }

    @Override
    void write(ByteBuf frame) {
        out.streamFrame(frame);
    }

    @Override
    void writeCredit(ByteBuf window) {
        out.streamCredit(window);
    }

    @Override
    boolean consumerSide() {
        return false;
    }

    @Override
    long deadlineNanos() {
        return deadlineNanos;
    }

    @Override
    int payloadBytes() {
        return payloadBytes;
    }

    @Override
    boolean inEventLoop() {
        return channel.eventLoop().inEventLoop();
    }

    @Override
    boolean writable() {
        return true; // the connection's answers are held to its write-buffer and memory budget (ResponseQueue)
    }
}
