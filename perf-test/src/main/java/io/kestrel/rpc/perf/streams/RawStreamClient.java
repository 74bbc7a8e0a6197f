package io.kestrel.rpc.perf.streams;

import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.perf.compare.system.ByteCountingHandler;
import io.kestrel.rpc.perf.compare.system.NettyGroups;
import io.kestrel.rpc.transport.spi.TransportThreads;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/** The consumer of {@link RawStreamSystem}: one connection, every stream's messages handled on its event loop. */
final class RawStreamClient implements StreamClient {
    private final EventLoopGroup group = NettyGroups.create("raw-stream-client");
    private final ByteCountingHandler counter = new ByteCountingHandler();
    private final Map<Integer, Stream> streams = new ConcurrentHashMap<>();
    private final Serializer serializer;
    private final Duration timeout;
    private final int payload;
    private Channel channel;
    private int ids;

    private RawStreamClient(Serializer serializer, Duration timeout, int payload) {
        this.serializer = serializer;
        this.timeout = timeout;
        this.payload = payload;
    }

    static RawStreamClient connect(String host, int port, Serializer serializer, Duration timeout, int payload)
            throws IOException, InterruptedException {
        RawStreamClient client = new RawStreamClient(serializer, timeout, payload);
        ChannelFuture f = new Bootstrap().group(client.group).channel(TransportThreads.socketChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast("bytes", client.counter)
                                .addLast("frame", RawStreamSystem.frameDecoder())
                                .addLast("streams", client.new Handler());
                    }
                })
                .connect(host, port).await();
        if (!f.isSuccess()) {
            NettyGroups.shutdown(client.group);
            throw new IOException("cannot connect to raw-stream server " + host + ":" + port + ": " + f.cause(),
                    f.cause());
        }
        client.channel = f.channel();
        return client;
    }

    @Override
    public long serverStreams(int streamCount, int each) throws Exception {
        List<CompletableFuture<Long>> ends = new ArrayList<>();
        for (int s = 0; s < streamCount; s++) {
            Stream stream = new Stream(0);
            int id = register(stream);
            ends.add(stream.end);
            ByteBuf open = channel.alloc().ioBuffer(17);
            open.writeInt(13).writeInt(id).writeByte(RawStreamSystem.FEED).writeInt(each).writeInt(payload);
            channel.write(open);
        }
        channel.flush();
        return StreamEnds.sum(ends, each, timeout, "raw-stream feed");
    }

    @Override
    public long pingPong(int streamCount, int trips) throws Exception {
        List<CompletableFuture<Long>> ends = new ArrayList<>();
        for (int s = 0; s < streamCount; s++) {
            Stream stream = new Stream(trips);
            int id = register(stream);
            ends.add(stream.end);
            channel.eventLoop().execute(() -> channel.write(ping(id, 0)));
        }
        channel.eventLoop().execute(channel::flush);
        return StreamEnds.sum(ends, trips, timeout, "raw-stream echo");
    }

    private synchronized int register(Stream stream) {
        int id = ++ids;
        streams.put(id, stream);
        return id;
    }

    private ByteBuf ping(int stream, long seq) {
        return RawStreamSystem.frame(channel.alloc(), stream, RawStreamSystem.DATA, serializer,
                StreamMessages.message(seq, payload));
    }

    @Override
    public long bytesWritten() {
        return counter.bytesWritten();
    }

    @Override
    public long bytesRead() {
        return counter.bytesRead();
    }

    @Override
    public void close() {
        channel.close().awaitUninterruptibly(2000);
        NettyGroups.shutdown(group);
        streams.values().forEach(s -> s.end.completeExceptionally(new IOException("raw-stream client closed")));
    }

    /** A stream's progress: a feed counts messages; a ping-pong stream ({@code trips > 0}) answers each echo. */
    private static final class Stream {
        final CompletableFuture<Long> end = new CompletableFuture<>();
        final int trips;
        long next;

        Stream(int trips) {
            this.trips = trips;
        }
    }

    private final class Handler extends SimpleChannelInboundHandler<ByteBuf> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
            int id = frame.readInt();
            byte kind = frame.readByte();
            Stream s = streams.get(id);
            if (s == null) {
                throw new IllegalStateException("frame for unknown stream " + id);
            }
            if (kind == RawStreamSystem.END) {
                streams.remove(id);
                s.end.complete(s.next);
                return;
            }
            StreamMessages.check(RawStreamSystem.message(serializer, frame), s.next++, payload);
            if (s.trips > 0) {
                if (s.next < s.trips) {
                    ctx.write(ping(id, s.next));
                } else {
                    streams.remove(id);
                    s.end.complete(s.next);
                }
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            streams.values().forEach(s -> s.end.completeExceptionally(cause));
            ctx.close();
        }
    }
}
