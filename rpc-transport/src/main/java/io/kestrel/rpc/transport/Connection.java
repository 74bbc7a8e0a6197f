package io.kestrel.rpc.transport;

import io.kestrel.rpc.api.BadRequestException;
import io.kestrel.rpc.api.ConnectionUnavailableException;
import io.kestrel.rpc.api.PayloadTooLargeException;
import io.kestrel.rpc.api.RemoteInvocationException;
import io.kestrel.rpc.api.RpcException;
import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.ServerBusyException;
import io.kestrel.rpc.api.ServiceNotFoundException;
import io.kestrel.rpc.api.TransportException;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.transport.internal.ByteCountingHandler;
import io.kestrel.rpc.transport.internal.Frame;
import io.kestrel.rpc.transport.internal.FrameDecoder;
import io.kestrel.rpc.transport.internal.OutboundRequest;
import io.kestrel.rpc.transport.internal.Wire;
import io.kestrel.rpc.transport.internal.WriteQueue;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.Timeout;
import io.netty.util.TimerTask;
import java.io.IOException;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one TCP connection from this process to one provider address, multiplexing every call to it:
 * requests from many threads interleave, responses are matched to pending calls by request id.
 *
 * <p>Each pending call has a deadline on the transport's timer wheel; on timeout it fails with
 * {@link RpcTimeoutException} and is removed. When the connection closes, every pending call fails at
 * once with {@link TransportException} and the connection is re-established in the background with
 * exponential backoff (100 ms doubling to 5 s). While disconnected, calls fail at once with
 * {@link ConnectionUnavailableException} (not sent). Heartbeats are sent when the connection has
 * been write-idle for the heartbeat interval; silence for {@code heartbeatMisses} intervals closes it.
 *
 * <p>Thread-safe.
 */
public final class Connection implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Connection.class);
    private static final long MAX_BACKOFF_MILLIS = 5000;

    private final ClientTransport transport;
    private final String host;
    private final int port;
    private final String address;
    private final ClientOptions options;
    private final Bootstrap bootstrap;
    private final ConcurrentHashMap<Long, PendingCall> pending = new ConcurrentHashMap<>();
    private final AtomicInteger pendingCount = new AtomicInteger();
    private final AtomicLong ids = new AtomicLong();
    /** Counted down once the first connect attempt's outcome has been applied. */
    private final java.util.concurrent.CountDownLatch firstAttemptDone = new java.util.concurrent.CountDownLatch(1);
    private volatile Channel channel;
    private volatile WriteQueue<OutboundRequest> writes;
    private volatile boolean closed;
    private volatile String lastError = "none";
    /** The provider said it is going away: send nothing more on the current channel. */
    private volatile boolean draining;
    /** The provider answered the handshake heartbeat on the current channel. */
    private volatile boolean ready;
    /** {@link #closeWhenIdle} was called: no new calls, whatever the channel does. */
    private volatile boolean retiring;
    private int failedAttempts;
    /** Shares taken with {@link ClientTransport#acquire}; guarded by the transport's map. */
    int users;

    Connection(ClientTransport transport, String host, int port, ClientOptions options) {
        this.transport = transport;
        this.host = host;
        this.port = port;
        this.address = host + ":" + port;
        this.options = options;
        ByteCountingHandler byteCounter = new ByteCountingHandler(transport.counters);
        long interval = options.heartbeatInterval().toMillis();
        this.bootstrap = new Bootstrap()
                .group(transport.group)
                .channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) options.connectTimeout().toMillis())
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline()
                                .addLast("bytes", byteCounter)
                                .addLast("idle", new IdleStateHandler(interval * options.heartbeatMisses(), interval, 0,
                                        TimeUnit.MILLISECONDS))
                                .addLast("frame", new FrameDecoder(options.payloadBytes()))
                                .addLast("calls", new Handler());
                    }
                });
        connect();
    }

    /** "host:port". */
    public String address() {
        return address;
    }

    /** Connected and accepting calls (false while the provider is shutting down). */
    public boolean isConnected() {
        Channel ch = channel;
        return ch != null && ch.isActive() && ready && !draining && !retiring;
    }

    /** Calls sent and not yet answered or timed out. */
    public int pendingCalls() {
        return pendingCount.get();
    }

    /** The last connection failure, for messages. */
    public String lastError() {
        return lastError;
    }

    /** Waits (up to the connect timeout) until the first connection attempt has finished. */
    public void awaitFirstConnect() {
        try {
            firstAttemptDone.await(options.connectTimeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void connect() {
        ChannelFuture f = bootstrap.connect(host, port);
        f.addListener((ChannelFuture done) -> {
            boolean awaitingHandshake = false;
            try {
                awaitingHandshake = onConnectAttempt(done);
            } finally {
                if (!awaitingHandshake) {
                    firstAttemptDone.countDown();
                }
            }
        });
    }

    /**
     * A TCP connection is not yet a live provider: a frozen process's kernel still accepts
     * connections. So the connection is usable only once the provider answered a handshake
     * heartbeat; until then calls fail at once as not sent.
     *
     * @return true when connected and waiting for the handshake answer
     */
    private boolean onConnectAttempt(ChannelFuture done) {
        if (done.isSuccess()) {
            Channel ch = done.channel();
            if (closed) {
                ch.close();
                return false;
            }
            Handler handler = ch.pipeline().get(Handler.class);
            writes = new WriteQueue<>(ch, r -> handler.write(ch, r));
            draining = false;
            ready = false;
            channel = ch;
            ByteBuf ping = ch.alloc().ioBuffer(Wire.HEADER_BYTES);
            Wire.writeHeader(ping, (byte) (Wire.FLAG_REQUEST | Wire.FLAG_TWO_WAY | Wire.FLAG_EVENT), (byte) 0, (byte) 0,
                    ids.incrementAndGet(), 0);
            ch.writeAndFlush(ping, ch.voidPromise());
            return true;
        } else {
            lastError = String.valueOf(done.cause() == null ? "unknown" : done.cause().getMessage());
            failedAttempts++;
            if (failedAttempts == 1) {
                log.warn("Cannot connect to provider {}: {}; retrying in the background", address, lastError);
            } else {
                log.debug("Reconnect {} to {} failed: {}", failedAttempts, address, lastError);
            }
            scheduleReconnect();
            return false;
        }
    }

    /** The provider answered the handshake heartbeat on the current channel. Event loop only. */
    private void onHandshake() {
        if (ready) {
            return;
        }
        ready = true;
        if (failedAttempts > 0) {
            log.info("Reconnected to provider {} after {} failed attempts", address, failedAttempts);
        } else {
            log.debug("Connected to provider {}", address);
        }
        failedAttempts = 0;
        firstAttemptDone.countDown();
    }

    private void scheduleReconnect() {
        if (closed) {
            return;
        }
        long delay = Math.min(MAX_BACKOFF_MILLIS, 100L << Math.min(failedAttempts, 6));
        try {
            transport.group.next().schedule(() -> {
                if (!closed && !isConnected()) {
                    connect();
                }
            }, delay, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            log.debug("Not reconnecting to {}: event loop shut down", address);
        }
    }

    /**
     * Sends a call. The future completes with the decoded result, or exceptionally with the
     * provider's exception or an {@link RpcException} saying what went wrong. Never blocks on the
     * network; serializes the arguments on the calling thread.
     */
    public CompletableFuture<Object> invoke(RpcRequest request) {
        if (closed) {
            return CompletableFuture.failedFuture(new ConnectionUnavailableException(
                    "connection to provider " + address + " is closed; the call " + request.method().displayName()
                            + " was not sent"));
        }
        if (firstAttemptDone.getCount() > 0 && !transport.inEventLoop()) {
            // a provider that just appeared: give its first connection (and handshake) the connect
            // timeout rather than failing the call that happens to come first
            awaitFirstConnect();
        }
        Channel ch = channel;
        WriteQueue<OutboundRequest> queue = writes;
        if (draining || retiring) {
            return CompletableFuture.failedFuture(new ConnectionUnavailableException("provider " + address
                    + " is shutting down; the call " + request.method().displayName() + " was not sent"));
        }
        if (ch == null || !ch.isActive() || queue == null || !ready) {
            return CompletableFuture.failedFuture(new ConnectionUnavailableException("not connected to provider "
                    + address + (ch != null && ch.isActive() ? " (connected, waiting for its handshake answer"
                            : " (reconnecting") + "; last error: " + lastError + "); the call "
                    + request.method().displayName() + " was not sent"));
        }
        if (pendingCount.incrementAndGet() > options.maxPendingCalls()) {
            pendingCount.decrementAndGet();
            return CompletableFuture.failedFuture(new ServerBusyException(options.maxPendingCalls()
                    + " calls are already pending on the connection to " + address + " (the reference's max-pending);"
                    + " the call " + request.method().displayName() + " was not sent. The provider is slow or the"
                    + " consumer sends faster than it can answer"));
        }
        ByteBuf args = ch.alloc().ioBuffer(256);
        int[] lengths;
        try {
            lengths = serializeArguments(request, args);
        } catch (RuntimeException e) {
            args.release();
            pendingCount.decrementAndGet();
            return CompletableFuture.failedFuture(e instanceof SerializationException ? e
                    : new SerializationException("cannot serialize the arguments of " + request.method().displayName()
                            + " with " + request.serializer().name() + ": " + e, e));
        }
        if (args.readableBytes() > options.payloadBytes()) {
            int size = args.readableBytes();
            args.release();
            pendingCount.decrementAndGet();
            return CompletableFuture.failedFuture(new PayloadTooLargeException("request " + request.method().displayName()
                    + " to " + address + " has " + size + " bytes of arguments, over the payload limit of "
                    + options.payloadBytes() + " bytes; it was not sent. Send less data or raise payload on both sides"));
        }
        long id = ids.incrementAndGet();
        PendingCall call = new PendingCall(id, request);
        pending.put(id, call);
        call.timeout = transport.timer.newTimeout(call, request.timeoutMillis(), TimeUnit.MILLISECONDS);
        try {
            queue.enqueue(new OutboundRequest(id, request.serializer().id(), request.method(), request.timeoutMillis(),
                    request.attachments(), args, lengths));
        } catch (RejectedExecutionException e) {
            args.release();
            fail(id, new ConnectionUnavailableException("connection to " + address + " is shutting down; the call "
                    + request.method().displayName() + " was not sent", e));
        }
        return call.future;
    }

    private static int[] serializeArguments(RpcRequest request, ByteBuf out) {
        Object[] args = request.arguments();
        int n = args == null ? 0 : args.length;
        int[] lengths = new int[Math.max(0, n - 1)];
        Serializer serializer = request.serializer();
        ByteBufOutputStream stream = new ByteBufOutputStream(out);
        for (int i = 0; i < n; i++) {
            int start = out.writerIndex();
            serializer.serialize(args[i], stream);
            if (i < n - 1) {
                lengths[i] = out.writerIndex() - start;
            }
        }
        return lengths;
    }

    private PendingCall finish(long id) {
        PendingCall call = pending.remove(id);
        if (call != null) {
            pendingCount.decrementAndGet();
            Timeout t = call.timeout;
            if (t != null) {
                t.cancel();
            }
        }
        return call;
    }

    private void fail(long id, Throwable error) {
        PendingCall call = finish(id);
        if (call != null) {
            call.future.completeExceptionally(error);
        }
    }

    private void failAll(String why) {
        for (Long id : List.copyOf(pending.keySet())) {
            PendingCall call = finish(id);
            if (call != null) {
                call.future.completeExceptionally(new TransportException(call.request.method().displayName()
                        + " request " + id + " failed: " + why + "; it may or may not have run on the provider"));
            }
        }
    }

    /**
     * Stops taking new calls now and closes once the calls already sent are answered or timed out
     * (used when a provider leaves the registry: its answers to calls in flight still count).
     */
    public void closeWhenIdle() {
        if (closed) {
            return;
        }
        retiring = true;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Runnable check = new Runnable() {
            @Override
            public void run() {
                if (pendingCount.get() == 0 || System.nanoTime() > deadline || !isOpenChannel()) {
                    close();
                } else {
                    transport.group.next().schedule(this, 20, TimeUnit.MILLISECONDS);
                }
            }
        };
        try {
            transport.group.next().execute(check);
        } catch (RejectedExecutionException e) {
            close();
        }
    }

    private boolean isOpenChannel() {
        Channel ch = channel;
        return ch != null && ch.isActive();
    }

    /** Closes the connection for good; pending calls fail at once. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        Channel ch = channel;
        if (ch != null) {
            ch.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        }
        failAll("the connection to " + address + " was closed by this consumer");
    }

    @Override
    public String toString() {
        return "Connection{" + address + (isConnected() ? ", connected" : ", disconnected") + ", pending="
                + pendingCount.get() + "}";
    }

    /** A call waiting for its response; also its own timeout task. */
    private final class PendingCall implements TimerTask {
        final long id;
        final RpcRequest request;
        final CompletableFuture<Object> future = new CompletableFuture<>();
        final long startNanos = System.nanoTime();
        volatile Timeout timeout;

        PendingCall(long id, RpcRequest request) {
            this.id = id;
            this.request = request;
        }

        @Override
        public void run(Timeout t) {
            if (pending.remove(id, this)) {
                pendingCount.decrementAndGet();
                long elapsed = (System.nanoTime() - startNanos) / 1_000_000;
                Channel ch = channel;
                future.completeExceptionally(new RpcTimeoutException(String.format(
                        "%s timed out after %d ms (limit %d ms), request %d, %s -> %s; "
                                + "the provider may be overloaded or the timeout too small for this method",
                        request.method().displayName(), elapsed, request.timeoutMillis(), id,
                        ch == null ? "?" : ch.localAddress(), address)));
            }
        }
    }

    /** Per-channel handler: writes requests (owning the method-reference table), reads responses. */
    private final class Handler extends ChannelInboundHandlerAdapter {
        private final IdentityHashMap<MethodRef, Integer> methodRefs = new IdentityHashMap<>();
        /** Set on the event loop when the going-away notice was acknowledged: nothing more is written. */
        private boolean goAwayAcknowledged;

        /** Runs on the event loop, in enqueue order, so a method's definition precedes its uses. */
        void write(Channel ch, OutboundRequest r) {
            ByteBuf args = r.arguments();
            if (!pending.containsKey(r.requestId())) {
                args.release(); // timed out while queued
                return;
            }
            if (!ch.isActive() || goAwayAcknowledged) {
                args.release();
                fail(r.requestId(), new ConnectionUnavailableException("connection to " + address
                        + (goAwayAcknowledged ? " is shutting down" : " closed") + " before "
                        + r.method().displayName() + " was sent; the call did not run"));
                return;
            }
            Integer ref = methodRefs.get(r.method());
            boolean define = ref == null;
            int refValue = define ? methodRefs.size() : ref;
            if (refValue >= Wire.MAX_METHOD_REFS) {
                args.release();
                fail(r.requestId(), new RpcException("more than " + Wire.MAX_METHOD_REFS
                        + " distinct methods called on one connection to " + address));
                return;
            }
            String descriptor = r.method().descriptor();
            ByteBuf head = ch.alloc().ioBuffer(Wire.HEADER_BYTES + 16 + (define ? descriptor.length() * 3 + 5 : 0)
                    + r.argumentLengths().length * 5);
            byte flags = (byte) (Wire.FLAG_REQUEST | Wire.FLAG_TWO_WAY | (define ? Wire.FLAG_METHOD_DEF : 0));
            Wire.writeHeader(head, flags, r.serializationId(), (byte) 0, r.requestId(), 0);
            Wire.writeVarint(head, refValue);
            if (define) {
                Wire.writeString(head, descriptor);
            }
            Wire.writeVarint(head, r.timeoutMillis());
            Wire.writeAttachments(head, r.attachments());
            for (int length : r.argumentLengths()) {
                Wire.writeVarint(head, length);
            }
            int bodyLength = head.writerIndex() - Wire.HEADER_BYTES + args.readableBytes();
            if (bodyLength > options.payloadBytes()) {
                head.release();
                args.release();
                fail(r.requestId(), new PayloadTooLargeException("request " + r.method().displayName() + " to " + address
                        + " is " + bodyLength + " bytes, over the payload limit of " + options.payloadBytes()
                        + " bytes; it was not sent"));
                return;
            }
            if (define) {
                methodRefs.put(r.method(), refValue);
            }
            head.setInt(Wire.LENGTH_OFFSET, bodyLength);
            ch.write(head, ch.voidPromise());
            ch.write(args, ch.voidPromise());
            transport.counters.frameWritten();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            Frame f = (Frame) msg;
            transport.counters.frameRead();
            if (f.isEvent() || f.isRequest()) {
                if (f.isEvent() && f.status == Status.GOING_AWAY) {
                    onGoingAway(ctx);
                } else if (f.isEvent() && !f.isRequest()) {
                    onHandshake(); // any heartbeat answer proves the provider alive
                }
                f.release(); // heartbeat answers only reset the idle timer
                return;
            }
            PendingCall call = finish(f.requestId);
            if (call == null) {
                log.debug("Response {} from {} arrived after its call timed out; dropped", f.requestId, address);
                f.release();
                return;
            }
            try {
                complete(call, f);
            } catch (Throwable t) {
                call.future.completeExceptionally(t instanceof RpcException ? t
                        : new SerializationException("cannot decode the response of " + call.request.method().displayName()
                                + " from " + address + ": " + t, t));
            } finally {
                f.release();
            }
        }

        private void complete(PendingCall call, Frame f) throws IOException {
            RpcRequest request = call.request;
            String where = request.method().displayName() + " on provider " + address;
            if (f.oversized()) {
                call.future.completeExceptionally(new PayloadTooLargeException("the response of " + where + " is "
                        + f.bodyLength + " bytes, over this consumer's payload limit of " + options.payloadBytes()
                        + " bytes; return less data or raise payload on the reference"));
                return;
            }
            ByteBuf body = f.body;
            switch (f.status) {
                case Status.OK -> {
                    byte kind = body.readByte();
                    if (kind == Wire.RESULT_NULL) {
                        call.future.complete(null);
                    } else {
                        Serializer serializer = serializerFor(f, request);
                        try (ByteBufInputStream in = new ByteBufInputStream(body)) {
                            call.future.complete(serializer.deserialize(in, request.returnType()));
                        }
                    }
                }
                case Status.SERVICE_ERROR -> call.future.completeExceptionally(remoteException(f, request, where));
                default -> {
                    String message = Wire.readString(body) + " [" + where + "]";
                    call.future.completeExceptionally(switch (f.status) {
                        case Status.SERVER_BUSY -> new ServerBusyException(message);
                        case Status.SERVICE_NOT_FOUND -> new ServiceNotFoundException(message);
                        case Status.BAD_REQUEST -> new BadRequestException(message);
                        case Status.SERVER_TIMEOUT -> new RpcTimeoutException(message);
                        case Status.PAYLOAD_TOO_LARGE -> new PayloadTooLargeException(message);
                        case Status.BAD_RESPONSE -> new SerializationException(message);
                        default -> new RpcException("provider answered " + Status.name(f.status) + ": " + message);
                    });
                }
            }
        }

        private Serializer serializerFor(Frame f, RpcRequest request) {
            Serializer serializer = request.serializer();
            if (f.serializationId != serializer.id()) {
                throw new SerializationException("provider " + address + " answered with serialization id "
                        + f.serializationId + " to a " + serializer.name() + " (id " + serializer.id() + ") request");
            }
            return serializer;
        }

        private Throwable remoteException(Frame f, RpcRequest request, String where) {
            ByteBuf body = f.body;
            String className = Wire.readString(body);
            String message = Wire.readString(body);
            if (body.isReadable()) {
                try (ByteBufInputStream in = new ByteBufInputStream(body)) {
                    Object o = serializerFor(f, request).deserialize(in, Throwable.class);
                    if (o instanceof Throwable t) {
                        return t;
                    }
                } catch (RuntimeException | IOException e) {
                    log.debug("Cannot deserialize {} from {}: {}", className, where, e.toString());
                }
            }
            Throwable rebuilt = rebuild(className, message);
            return rebuilt != null ? rebuilt : new RemoteInvocationException(className, message, where);
        }

        /** Recreates an allowed exception type from its name and message, when it has a (String) constructor. */
        private Throwable rebuild(String className, String message) {
            if (!transport.allowlist.isAllowed(className)) {
                return null;
            }
            try {
                Class<?> type = Class.forName(className, false, Thread.currentThread().getContextClassLoader() != null
                        ? Thread.currentThread().getContextClassLoader() : Connection.class.getClassLoader());
                if (Throwable.class.isAssignableFrom(type)) {
                    return (Throwable) type.getConstructor(String.class).newInstance(message);
                }
            } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                log.debug("Cannot rebuild remote exception {}: {}", className, e.toString());
            }
            return null;
        }

        /**
         * The provider is shutting down: stop sending on this channel and acknowledge. Runs on the
         * event loop, so every request written before the acknowledgement precedes it on the wire,
         * and {@link #write} refuses (as not sent) anything queued after it.
         */
        private void onGoingAway(ChannelHandlerContext ctx) {
            if (goAwayAcknowledged) {
                return;
            }
            draining = true;
            goAwayAcknowledged = true;
            log.info("Provider {} is shutting down; routing new calls elsewhere ({} still pending here)", address,
                    pendingCount.get());
            ByteBuf ack = ctx.alloc().ioBuffer(Wire.HEADER_BYTES);
            Wire.writeHeader(ack, (byte) (Wire.FLAG_REQUEST | Wire.FLAG_EVENT), (byte) 0, Status.GOING_AWAY, 0, 0);
            ctx.writeAndFlush(ack, ctx.voidPromise());
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
            if (evt instanceof IdleStateEvent e) {
                if (e.state() == IdleState.READER_IDLE) {
                    log.warn("Provider {} sent nothing for {} heartbeat intervals ({} ms); closing the connection and"
                            + " reconnecting", address, options.heartbeatMisses(),
                            options.heartbeatInterval().toMillis() * options.heartbeatMisses());
                    lastError = "heartbeat timeout";
                    ctx.close();
                } else if (e.state() == IdleState.WRITER_IDLE) {
                    ByteBuf ping = ctx.alloc().ioBuffer(Wire.HEADER_BYTES);
                    Wire.writeHeader(ping, (byte) (Wire.FLAG_REQUEST | Wire.FLAG_TWO_WAY | Wire.FLAG_EVENT), (byte) 0,
                            (byte) 0, ids.incrementAndGet(), 0);
                    ctx.writeAndFlush(ping, ctx.voidPromise());
                }
                return;
            }
            super.userEventTriggered(ctx, evt);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            Channel ch = ctx.channel();
            if (channel == ch) {
                channel = null;
                ready = false;
            }
            firstAttemptDone.countDown(); // closed before the handshake: the first attempt is over
            WriteQueue<OutboundRequest> queue = writes;
            if (queue != null) {
                queue.drainTo(r -> {
                    r.arguments().release();
                    fail(r.requestId(), new ConnectionUnavailableException("connection to " + address
                            + " closed before " + r.method().displayName() + " was sent; the call did not run"));
                });
            }
            failAll("the connection to " + address + " closed (" + lastError + ")");
            if (!closed) {
                log.warn("Connection to provider {} closed; reconnecting", address);
                scheduleReconnect();
            }
            super.channelInactive(ctx);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (cause instanceof DecoderException) {
                lastError = "bad frame: " + (cause.getCause() != null ? cause.getCause().getMessage() : cause.getMessage());
                log.warn("Closing connection to provider {}: {}", address, lastError);
            } else {
                lastError = cause.toString();
                log.debug("Connection to provider {} failed: {}", address, lastError);
            }
            ctx.close();
        }
    }
}
