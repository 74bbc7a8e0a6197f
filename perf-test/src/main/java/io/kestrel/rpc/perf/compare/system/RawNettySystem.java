package io.kestrel.rpc.perf.compare.system;

import io.kestrel.rpc.perf.server.BenchServer;
import io.kestrel.rpc.perf.support.Encodings;
import io.kestrel.rpc.perf.support.Workload;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The practical limit of the transport: a length-prefixed echo over Netty that moves the same
 * payload bytes as the framework (the serialized argument one way, the serialized result back) and
 * does nothing else: no (de)serialization, no dispatch, no thread hop.
 *
 * <pre>
 * request:  | length (4, big-endian, counts what follows) | workload ordinal (1) | serialized argument |
 * response: | length (4)                                  | serialized result                        |
 * </pre>
 *
 * Both halves precompute their frames once; the client checks only the answer's length.
 */
public final class RawNettySystem implements BenchSystem {
    private static final Logger log = LoggerFactory.getLogger(RawNettySystem.class);
    private static final int MAX_FRAME_BYTES = 16 * 1024 * 1024;

    private final String encoding;
    private final SystemSettings settings;

    /** Carries the bytes of {@code settings.rawSerialization()}, or JSON if that is not installed. */
    public RawNettySystem(SystemSettings settings) {
        this.settings = settings;
        this.encoding = Encodings.isAvailable(settings.rawSerialization()) ? settings.rawSerialization()
                : Encodings.JSON_REST;
    }

    @Override
    public String name() {
        return "raw-netty";
    }

    @Override
    public String description() {
        return "length-prefixed Netty echo of the " + encoding + " bytes of argument and result; client counts bytes "
                + "with a handler at the head of its pipeline";
    }

    /** The encoding whose bytes are echoed. */
    public String encoding() {
        return encoding;
    }

    @Override
    public long argumentBytes(Workload workload) {
        return Encodings.encode(encoding, workload.argument()).length;
    }

    @Override
    public BenchServer startServer() throws InterruptedException {
        ByteBuf[] responses = new ByteBuf[Workload.values().length];
        for (Workload w : Workload.values()) {
            byte[] body = Encodings.encode(encoding, w.expectedResult());
            ByteBuf frame = Unpooled.directBuffer(4 + body.length).writeInt(body.length).writeBytes(body);
            responses[w.ordinal()] = frame;
        }
        EchoHandler echo = new EchoHandler(responses);
        // The handler writes retained duplicates; the frames themselves are released when the server closes.
        return NettyGroups.serve("raw-server", p -> p
                .addLast("frame", frameDecoder())
                .addLast("echo", echo), () -> {
                    for (ByteBuf frame : responses) {
                        frame.release();
                    }
                });
    }

    @Override
    public BenchClient openClient(String host, int port) {
        return new NettyClient("raw-client", host, port, settings.callTimeout(),
                p -> p.addLast("frame", frameDecoder()), (workload, connection) -> {
                    byte[] body = Encodings.encode(encoding, workload.argument());
                    ByteBuf frame = Unpooled.directBuffer(5 + body.length)
                            .writeInt(body.length + 1).writeByte(workload.ordinal()).writeBytes(body);
                    int expectedAnswerBytes = Encodings.encode(encoding, workload.expectedResult()).length;
                    return new Caller() {
                        @Override
                        public void call() throws Exception {
                            ByteBuf answer = (ByteBuf) connection.exchange(frame.retainedDuplicate(),
                                    settings.callTimeout());
                            try {
                                if (answer.readableBytes() != expectedAnswerBytes) {
                                    throw new IllegalStateException("raw echo answered " + answer.readableBytes()
                                            + " bytes, expected " + expectedAnswerBytes);
                                }
                            } finally {
                                answer.release();
                            }
                        }

                        @Override
                        public void close() {
                            connection.close();
                            frame.release();
                        }
                    };
                });
    }

    /** Splits the stream at the 4-byte length prefix and strips it. */
    private static LengthFieldBasedFrameDecoder frameDecoder() {
        return new LengthFieldBasedFrameDecoder(MAX_FRAME_BYTES, 0, 4, 0, 4);
    }

    /** Answers each request frame with the precomputed result frame of its workload. */
    @Sharable
    private static final class EchoHandler extends SimpleChannelInboundHandler<ByteBuf> {
        private final ByteBuf[] responses;

        EchoHandler(ByteBuf[] responses) {
            this.responses = responses;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
            int workload = frame.readUnsignedByte();
            if (workload >= responses.length) {
                log.warn("Unknown workload {} from {}; closing", workload, ctx.channel().remoteAddress());
                ctx.close();
                return;
            }
            ctx.writeAndFlush(responses[workload].retainedDuplicate());
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            log.warn("Raw echo connection {} failed; closing", ctx.channel().remoteAddress(), cause);
            ctx.close();
        }
    }
}
