package io.kestrel.rpc.perf.streams;

import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.perf.compare.system.NettyGroups;
import io.kestrel.rpc.perf.server.BenchServer;
import io.kestrel.rpc.perf.support.Encodings;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import java.time.Duration;
import java.util.ArrayDeque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The limit of the framework's streams for one serialization: a minimal streaming loop on raw Netty with the very
 * same {@link Serializer} (and DemoOptimizer registrations) as {@code kestrel-<serialization>}, and nothing else:
 *
 * <pre>
 * frame: | length (4, counts what follows) | stream id (4) | kind (1) | body |
 * kind:  1 FEED  consumer -> server, body: count (4) | payload (4): send count messages on this stream
 *        2 DATA  either way, body: one serialized message
 *        3 END   server -> consumer, no body: the feed sent its last message
 * </pre>
 *
 * The server serializes and writes a feed's messages on its event loop while the channel is writable (round robin
 * over the connection's feeds, a flush every {@value #FLUSH_EVERY} messages and when it stops), resuming when the
 * channel becomes writable again: Netty's own backpressure, no credit frames. It answers a consumer's DATA with the
 * same message, deserialized and serialized again. The consumer ({@link RawStreamClient}) deserializes and checks each
 * message on its event loop and sends a ping-pong stream's next message from there.
 */
final class RawStreamSystem implements StreamSystem {
    static final String PREFIX = "raw-stream-";
    static final byte FEED = 1;
    static final byte DATA = 2;
    static final byte END = 3;
    static final int FLUSH_EVERY = 256;
    private static final int MAX_FRAME_BYTES = 1 << 20;
    private static final Logger log = LoggerFactory.getLogger(RawStreamSystem.class);

    private final String variant;

    RawStreamSystem(String variant) {
        this.variant = variant;
    }

    @Override
    public String name() {
        return PREFIX + variant;
    }

    @Override
    public String description() {
        return "minimal streaming loop on raw Netty with the framework's " + variant + " serializer and DemoOptimizer:"
                + " length prefix, stream id, kind; the server writes while the channel is writable; bytes counted by"
                + " a handler at the head of the client pipeline";
    }

    @Override
    public String rawLoop() {
        return null;
    }

    @Override
    public int messageBytes(int payload) {
        return Encodings.encode(variant, StreamMessages.message(0, payload)).length;
    }

    Serializer serializer() {
        return Encodings.serializer(variant, true);
    }

    @Override
    public BenchServer startServer() throws InterruptedException {
        Serializer serializer = serializer();
        return NettyGroups.serve("raw-stream-server", p -> p
                .addLast("frame", frameDecoder())
                .addLast("streams", new ServerHandler(serializer)), () -> {
                });
    }

    @Override
    public StreamClient openClient(String host, int port, Duration timeout, int payload) throws Exception {
        return RawStreamClient.connect(host, port, serializer(), timeout, payload);
    }

    static LengthFieldBasedFrameDecoder frameDecoder() {
        return new LengthFieldBasedFrameDecoder(MAX_FRAME_BYTES, 0, 4, 0, 4);
    }

    /** A frame with {@code value} serialized as its body (null: none), its length prefix filled in. */
    static ByteBuf frame(ByteBufAllocator alloc, int stream, byte kind, Serializer serializer, Object value) {
        ByteBuf out = alloc.ioBuffer();
        out.writeInt(0).writeInt(stream).writeByte(kind);
        if (value != null) {
            serializer.serialize(value, new ByteBufOutputStream(out));
        }
        return out.setInt(0, out.readableBytes() - 4);
    }

    static byte[] message(Serializer serializer, ByteBuf body) {
        return (byte[]) serializer.deserialize(new ByteBufInputStream(body), byte[].class);
    }

    /** One connection's feeds and echoes, all on its event loop. */
    private static final class ServerHandler extends SimpleChannelInboundHandler<ByteBuf> {
        private final Serializer serializer;
        private final ArrayDeque<Feed> feeds = new ArrayDeque<>();

        ServerHandler(Serializer serializer) {
            this.serializer = serializer;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
            int stream = frame.readInt();
            byte kind = frame.readByte();
            if (kind == FEED) {
                feeds.add(new Feed(stream, frame.readInt(), frame.readInt()));
            } else if (kind == DATA) {
                ctx.write(frame(ctx.alloc(), stream, DATA, serializer, message(serializer, frame)));
            } else {
                throw new IllegalArgumentException("unknown frame kind " + kind + " on stream " + stream);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            pump(ctx);
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            pump(ctx);
            ctx.fireChannelWritabilityChanged();
        }

        /** Writes the feeds' messages round robin while the channel is writable, then flushes. */
        private void pump(ChannelHandlerContext ctx) {
            int written = 0;
            while (!feeds.isEmpty() && ctx.channel().isWritable()) {
                Feed f = feeds.poll();
                ctx.write(frame(ctx.alloc(), f.stream, DATA, serializer, StreamMessages.message(f.next++, f.payload)));
                if (f.next == f.count) {
                    ctx.write(frame(ctx.alloc(), f.stream, END, serializer, null));
                } else {
                    feeds.add(f);
                }
                if (++written % FLUSH_EVERY == 0) {
                    ctx.flush();
                }
            }
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            log.warn("raw-stream connection {} failed; closing", ctx.channel().remoteAddress(), cause);
            ctx.close();
        }
    }

    private static final class Feed {
        final int stream;
        final int count;
        final int payload;
        long next;

        Feed(int stream, int count, int payload) {
            this.stream = stream;
            this.count = count;
            this.payload = payload;
        }
    }
}
