package io.kestrel.rpc.perf.compare.system;

import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.perf.support.Workload;
import io.kestrel.rpc.transport.spi.TransportThreads;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.flush.FlushConsolidationHandler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The client half of {@link RawRpcSystem}: one connection shared by every caller, calls matched to
 * answers by request id. A call serializes its argument on the calling thread into a pooled buffer
 * and writes it (flushes of several threads are coalesced on the event loop by Netty's
 * {@link FlushConsolidationHandler}); the event loop deserializes each answer and completes the
 * call's future. Asynchronous calls have no timer of their own (the pipelined driver bounds its wait
 * for the calls in flight); a blocking call waits at most the call timeout and forgets its id then.
 * If the connection closes, every pending call fails. Thread-safe.
 */
final class RawRpcClient implements AutoCloseable {
    private final EventLoopGroup group;
    private final Serializer serializer;
    private final Duration callTimeout;
    private final ByteCountingHandler counter = new ByteCountingHandler();
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
    private final String address;
    /** Set once by {@link #connect}, before any call. */
    private Channel channel;

    /** A call waiting for its answer, with the type its result is read as. */
    private static final class Pending extends CompletableFuture<Object> {
        final Class<?> resultType;

        Pending(Class<?> resultType) {
            this.resultType = resultType;
        }
    }

    private RawRpcClient(Serializer serializer, Duration callTimeout, String host, int port) {
        this.group = NettyGroups.create("raw-rpc-client");
        this.serializer = serializer;
        this.callTimeout = callTimeout;
        this.address = host + ":" + port;
    }

    /**
     * Connects to a {@link RawRpcSystem} server.
     *
     * @throws IOException if the connection cannot be made
     */
    static RawRpcClient connect(String host, int port, Serializer serializer, Duration callTimeout)
            throws IOException, InterruptedException {
        RawRpcClient client = new RawRpcClient(serializer, callTimeout, host, port);
        ChannelFuture f = new Bootstrap()
                .group(client.group)
                .channel(TransportThreads.socketChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, callTimeout.toMillis()))
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline()
                                .addLast("bytes", client.counter)
                                .addLast("flush", new FlushConsolidationHandler(256, true))
                                .addLast("frame", RawRpcSystem.frameDecoder())
                                .addLast("answers", client.new AnswerHandler());
                    }
                })
                .connect(host, port).await();
        if (!f.isSuccess()) {
            NettyGroups.shutdown(client.group);
            throw new IOException("cannot connect to raw-rpc server " + client.address + ": " + f.cause(), f.cause());
        }
        client.channel = f.channel();
        return client;
    }

    /**
     * Calls and waits for the result.
     *
     * @throws TimeoutException if no answer came within the call timeout
     * @throws IOException if the call failed on either side or the connection closed
     */
    Object call(Workload workload, Object argument) throws Exception {
        long id = ids.incrementAndGet();
        Pending p = send(id, workload, argument);
        try {
            return p.get(callTimeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            pending.remove(id);
            throw new TimeoutException("raw-rpc call " + id + " (" + workload.label() + ") to " + address
                    + " got no answer within " + callTimeout.toMillis() + " ms");
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception ex ? ex : e;
        }
    }

    /** Sends a call and returns its future at once. */
    CompletableFuture<Object> start(Workload workload, Object argument) {
        try {
            return send(ids.incrementAndGet(), workload, argument);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private Pending send(long id, Workload workload, Object argument) {
        ByteBuf out = channel.alloc().ioBuffer();
        try {
            out.writeInt(0).writeLong(id).writeByte(workload.ordinal());
            serializer.serialize(argument, new ByteBufOutputStream(out));
            out.setInt(0, out.readableBytes() - 4);
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
        Pending p = new Pending(workload.resultType());
        pending.put(id, p);
        if (!channel.isActive()) {
            pending.remove(id);
            out.release();
            p.completeExceptionally(new IOException("raw-rpc connection to " + address + " is closed"));
            return p;
        }
        // a failed write fires exceptionCaught, which closes the channel and fails every pending call
        channel.writeAndFlush(out, channel.voidPromise());
        return p;
    }

    private void answered(ByteBuf frame) {
        long id = frame.readLong();
        byte status = frame.readByte();
        Pending p = pending.remove(id);
        if (p == null) {
            return; // its caller gave up (timeout)
        }
        if (status != RawRpcSystem.OK) {
            p.completeExceptionally(new IOException("raw-rpc server failed call " + id + ": "
                    + frame.toString(StandardCharsets.UTF_8)));
            return;
        }
        try {
            p.complete(serializer.deserialize(new ByteBufInputStream(frame), p.resultType));
        } catch (RuntimeException e) {
            p.completeExceptionally(e);
        }
    }

    private void failAll(Throwable cause) {
        for (Long id : pending.keySet()) {
            Pending p = pending.remove(id);
            if (p != null) {
                p.completeExceptionally(cause);
            }
        }
    }

    /** Calls waiting for an answer. */
    int pendingCalls() {
        return pending.size();
    }

    long bytesWritten() {
        return counter.bytesWritten();
    }

    long bytesRead() {
        return counter.bytesRead();
    }

    @Override
    public void close() {
        channel.close().awaitUninterruptibly(2000);
        failAll(new IOException("raw-rpc client closed"));
        NettyGroups.shutdown(group);
    }

    /** Completes calls from answers; fails them all when the connection ends. */
    private final class AnswerHandler extends SimpleChannelInboundHandler<ByteBuf> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
            answered(frame);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            failAll(new IOException("raw-rpc connection to " + address + " closed"));
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            failAll(new IOException("raw-rpc connection to " + address + " failed: " + cause, cause));
            ctx.close();
        }
    }
}
