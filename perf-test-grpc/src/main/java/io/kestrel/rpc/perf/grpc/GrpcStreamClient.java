package io.kestrel.rpc.perf.grpc;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.buffer.ByteBuf;
import io.grpc.netty.shaded.io.netty.channel.ChannelDuplexHandler;
import io.grpc.netty.shaded.io.netty.channel.ChannelHandler;
import io.grpc.netty.shaded.io.netty.channel.ChannelHandlerContext;
import io.grpc.netty.shaded.io.netty.channel.ChannelPromise;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioSocketChannel;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The client half of perf-test's {@code grpc} streams system: one grpc-java channel (one HTTP/2 connection) with its
 * defaults (callbacks on its cached thread pool, automatic inbound flow control) on NIO event loops. perf-test loads
 * this class in a class loader of its own and calls it by reflection with JDK types only. Wire bytes are counted by a
 * handler put first in the connection's pipeline when grpc creates its channel: every byte of the socket, HTTP/2
 * framing, headers, window updates and pings included.
 */
public final class GrpcStreamClient implements AutoCloseable {
    private final EventLoopGroup group = new NioEventLoopGroup(Runtime.getRuntime().availableProcessors());
    private final Counter counter = new Counter();
    private final ManagedChannel channel;
    private final long timeoutMillis;
    private final int payload;

    public GrpcStreamClient(String host, int port, long timeoutMillis, int payload) {
        this.timeoutMillis = timeoutMillis;
        this.payload = payload;
        this.channel = NettyChannelBuilder.forAddress(host, port).usePlaintext().eventLoopGroup(group)
                .channelFactory(() -> {
                    NioSocketChannel ch = new NioSocketChannel();
                    ch.pipeline().addFirst("bytes", counter);
                    return ch;
                }).build();
    }

    private CallOptions options() {
        return CallOptions.DEFAULT.withDeadlineAfter(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    /**
     * Opens {@code streams} Feed streams of {@code count} messages each at once and waits until all completed;
     * every message is checked (order, size).
     *
     * @return the messages received
     */
    public long serverStreams(int streams, int count) throws Exception {
        List<CompletableFuture<Long>> ends = new ArrayList<>();
        for (int s = 0; s < streams; s++) {
            CompletableFuture<Long> end = new CompletableFuture<>();
            ends.add(end);
            ClientCalls.asyncServerStreamingCall(channel.newCall(ByteMethods.FEED, options()),
                    ByteMethods.feedRequest(count, payload), new StreamObserver<>() {
                        long next;

                        @Override
                        public void onNext(byte[] m) {
                            ByteMethods.check(m, next++, payload);
                        }

                        @Override
                        public void onError(Throwable t) {
                            end.completeExceptionally(t);
                        }

                        @Override
                        public void onCompleted() {
                            end.complete(next);
                        }
                    });
        }
        return sum(ends, count);
    }

    /**
     * Opens {@code streams} Echo streams at once; each sends a message, waits for its echo, and so on
     * {@code trips} times, then half-closes. Waits until all completed.
     *
     * @return the round trips made
     */
    public long pingPong(int streams, int trips) throws Exception {
        List<CompletableFuture<Long>> ends = new ArrayList<>();
        for (int s = 0; s < streams; s++) {
            CompletableFuture<Long> end = new CompletableFuture<>();
            ends.add(end);
            PingPong p = new PingPong(trips, end);
            p.requests = ClientCalls.asyncBidiStreamingCall(channel.newCall(ByteMethods.ECHO, options()), p);
            p.requests.onNext(ByteMethods.message(0, payload));
        }
        return sum(ends, trips);
    }

    private final class PingPong implements StreamObserver<byte[]> {
        final int trips;
        final CompletableFuture<Long> end;
        volatile StreamObserver<byte[]> requests;
        long done;

        PingPong(int trips, CompletableFuture<Long> end) {
            this.trips = trips;
            this.end = end;
        }

        @Override
        public void onNext(byte[] m) {
            ByteMethods.check(m, done, payload);
            if (++done < trips) {
                requests.onNext(ByteMethods.message(done, payload));
            } else {
                requests.onCompleted();
            }
        }

        @Override
        public void onError(Throwable t) {
            end.completeExceptionally(t);
        }

        @Override
        public void onCompleted() {
            end.complete(done);
        }
    }

    private long sum(List<CompletableFuture<Long>> ends, int each) throws Exception {
        long total = 0;
        for (CompletableFuture<Long> end : ends) {
            long n = end.get(timeoutMillis, TimeUnit.MILLISECONDS);
            if (n != each) {
                throw new IllegalStateException("a grpc stream ended after " + n + " of " + each + " messages");
            }
            total += n;
        }
        return total;
    }

    /** Bytes written to the connection's socket so far. */
    public long bytesWritten() {
        return counter.written.sum();
    }

    /** Bytes read from the connection's socket so far. */
    public long bytesRead() {
        return counter.read.sum();
    }

    @Override
    public void close() throws InterruptedException {
        try {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
        }
    }

    /** Counts the bytes passing the head of the pipeline, i.e. what goes on the socket. */
    @ChannelHandler.Sharable
    private static final class Counter extends ChannelDuplexHandler {
        final LongAdder read = new LongAdder();
        final LongAdder written = new LongAdder();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof ByteBuf b) {
                read.add(b.readableBytes());
            }
            ctx.fireChannelRead(msg);
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (msg instanceof ByteBuf b) {
                written.add(b.readableBytes());
            }
            ctx.write(msg, promise);
        }
    }
}
