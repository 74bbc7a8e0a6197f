package io.kestrel.rpc.transport.internal.stream;

import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.api.internal.StreamSignature;
import io.kestrel.rpc.api.stream.StreamCancelledException;
import io.kestrel.rpc.api.stream.StreamObserver;
import io.kestrel.rpc.transport.spi.MethodRef;
import io.kestrel.rpc.transport.StreamCall;
import io.kestrel.rpc.transport.internal.PendingCall;
import io.kestrel.rpc.transport.internal.WriteQueue;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.util.concurrent.EventExecutor;
import java.util.Arrays;
import java.util.concurrent.Executor;

/**
 * The consumer's side of one stream. It stands in the call's arguments in place of the response observer; the
 * connection sends the call (the request that opens the stream), {@linkplain #bind binds} this to it, and
 * grants the provider the initial window. The provider's messages reach the response observer on the delivery
 * executor; the call's end (its response, deadline, a cancel or the connection closing) ends it after them.
 * As the request observer of a bidirectional or client-streaming call, it sends the consumer's messages.
 */
public final class ClientStream extends StreamSide implements StreamCall {
    private final boolean requestsStream;
    private volatile MethodRef method;
    private volatile PendingCall call;
    private volatile Channel channel;
    private volatile WriteQueue<Object> writes;
    private volatile ClientStreams table;
    private int payloadBytes = Integer.MAX_VALUE;
    private volatile boolean halfClosed;
    private boolean halfCloseSent; // guarded by this
    private boolean opened; // the call is queued: frames may follow it (guarded by this)
    private volatile boolean ended;
    private volatile boolean cancelSent;

    /**
     * @param delivery where the provider's messages reach {@code responses}; {@link StreamCall#IO_THREAD}: on the I/O
     *     thread of the connection the stream is bound to
     */
    public ClientStream(StreamObserver<Object> responses, Executor delivery, boolean requestsStream) {
        super(delivery == StreamCall.IO_THREAD ? new OnLoop() : delivery, true);
        if (delivery() instanceof OnLoop onLoop) {
            onLoop.stream = this;
        }
        this.requestsStream = requestsStream;
        this.receiver = responses;
    }

    /** Delivery on the event loop of the stream's connection ({@link StreamCall#IO_THREAD}). */
    private static final class OnLoop implements Inbox.OnEventLoop {
        volatile ClientStream stream;

        @Override
        public void execute(Runnable task) {
            Channel ch = stream.channel;
            if (ch == null) {
                task.run(); // never bound to a connection (the call failed before one took it): its end is told here
            } else {
                ch.eventLoop().execute(task);
            }
        }

        @Override
        public EventExecutor loop() {
            Channel ch = stream.channel;
            return ch == null ? null : ch.eventLoop();
        }
    }

    /** The stream in {@code arguments} of a streaming method's call; its arguments on the wire are the others. */
    public static ClientStream in(MethodRef method, Object[] arguments) {
        StreamSignature sig = method.stream();
        Object at = arguments == null || arguments.length <= sig.observerIndex() ? null : arguments[sig.observerIndex()];
        if (!(at instanceof ClientStream stream)) {
            throw new IllegalArgumentException(method.displayName() + " is a streaming method: the call's observer"
                    + " argument must be the stream the proxy made (StreamCall.create), was "
                    + (at == null ? "null" : at.getClass().getName()));
        }
        return stream;
    }

    /** The call's arguments as sent: all but the observer. */
    public static Object[] wireArguments(MethodRef method, Object[] arguments) {
        return Arrays.copyOf(arguments, method.stream().observerIndex());
    }

    // known once the call is made: set in bind, read after (the volatile writes there publish them)
    private long boundId;
    private Serializer boundSerializer;
    private Class<?> responseType = Object.class;

    /** Ties this stream to its call, before the call is queued; refuses a stream used twice. */
    public void bind(PendingCall call, Channel channel, WriteQueue<Object> writes, ClientStreams table,
            int payloadBytes) {
        synchronized (this) {
            if (this.call != null || ended) {
                throw new IllegalStateException("a stream is opened once; " + call.method().displayName()
                        + " was called with a stream already used");
            }
            this.boundId = call.id();
            this.boundSerializer = call.serializer();
            this.responseType = call.method().stream().responseType();
            this.payloadBytes = payloadBytes;
            this.method = call.method();
            this.channel = channel;
            this.writes = writes;
            this.table = table;
            this.call = call;
        }
        table.add(call.id(), this);
    }

    /** The opening request is queued: the provider may send the initial window of messages. */
    public void sent() {
        grantInitial();
        synchronized (this) {
            opened = true;
            if (halfClosed && !halfCloseSent) { // completed before the call was sent
                halfCloseSent = true;
                write(StreamFrames.halfClose(alloc(), boundSerializer.id(), boundId));
            }
        }
    }

    @Override
    public void callEnded(Object value, Throwable error) {
        synchronized (this) {
            if (ended) {
                return;
            }
            ended = true;
        }
        ClientStreams t = table;
        if (t != null) {
            t.remove(boundId, this);
        }
        credit.close(error == null ? "completed by the provider" : error.toString());
        if (error instanceof RpcTimeoutException && call != null) {
            sendCancel("the consumer's deadline passed");
        }
        endReceiving(error);
    }

    @Override
    public void onNext(Object value) {
        if (!requestsStream) {
            throw new IllegalStateException(what() + " is server streaming: the consumer sends no messages");
        }
        if (halfClosed) {
            throw new IllegalStateException(what() + " was half-closed (onCompleted): no message follows");
        }
        send(value); // before the call is sent (an interceptor that proceeds later), this waits for its credit too
    }

    @Override
    public void onCompleted() {
        synchronized (this) {
            if (!requestsStream || halfClosed || ended) {
                return;
            }
            halfClosed = true;
            if (!opened) {
                return; // sent once the call is queued (see sent)
            }
            halfCloseSent = true;
        }
        write(StreamFrames.halfClose(alloc(), boundSerializer.id(), boundId));
    }

    @Override
    public void onError(Throwable error) {
        cancel("the consumer's request stream failed: " + error);
    }

    @Override
    public void cancel(String reason) {
        PendingCall c = call;
        if (ended) {
            return;
        }
        String why = "cancelled by the consumer: " + reason;
        if (c == null) {
            callEnded(null, new StreamCancelledException(why));
            return;
        }
        sendCancel(reason);
        c.fail(new StreamCancelledException(what() + " " + why));
    }

    @Override
    void peerCancelled(String reason) {
        PendingCall c = call;
        if (c != null) {
            c.fail(new StreamCancelledException(what() + " was cancelled by the provider: " + reason));
        }
    }

    private void sendCancel(String reason) {
        if (!cancelSent && call != null) {
            cancelSent = true;
            write(StreamFrames.cancel(alloc(), true, boundSerializer.id(), boundId, reason));
        }
    }

    @Override
    public boolean isCancelled() {
        return ended;
    }

    @Override
    long streamId() {
        return boundId;
    }

    @Override
    Serializer serializer() {
        return boundSerializer;
    }

    @Override
    Class<?> inboundType() {
        return responseType;
    }

    @Override
    String what() {
        MethodRef m = method;
        return "stream " + boundId + " of " + (m == null ? "a streaming call" : m.displayName());
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
        writes.enqueue(frame);
    }

    @Override
    void writeCredit(ByteBuf window) {
        writes.enqueueUrgent(window);
    }

    @Override
    boolean consumerSide() {
        return true;
    }

    @Override
    long deadlineNanos() {
        PendingCall c = call;
        return c == null ? 0 : c.deadlineNanos();
    }

    @Override
    int payloadBytes() {
        return payloadBytes;
    }

    @Override
    boolean inEventLoop() {
        Channel ch = channel;
        return ch != null && ch.eventLoop().inEventLoop();
    }

    @Override
    boolean writable() {
        Channel ch = channel;
        return ch == null || ch.isWritable() || !ch.isActive();
    }

    @Override
    public String toString() {
        return what();
    }

    @Override
    boolean othersWaiting() {
        ClientStreams streams = table;
        return streams != null && streams.unaryWaiting();
    }
}
