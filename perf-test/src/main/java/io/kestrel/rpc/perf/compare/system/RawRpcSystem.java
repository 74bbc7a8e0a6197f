package io.kestrel.rpc.perf.compare.system;

import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.demo.DemoOptimizer;
import io.kestrel.rpc.perf.server.BenchServer;
import io.kestrel.rpc.perf.support.BenchmarkService;
import io.kestrel.rpc.perf.support.BenchmarkServiceImpl;
import io.kestrel.rpc.perf.support.Encodings;
import io.kestrel.rpc.perf.support.ResultCheck;
import io.kestrel.rpc.perf.support.SerializationVariant;
import io.kestrel.rpc.perf.support.Workload;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fair limit of the framework for one serialization: a minimal RPC on raw Netty that does the
 * framework's four (de)serializations with the very same {@link Serializer} (created by the same
 * serialization with the same options and {@link DemoOptimizer} registrations as
 * {@code kestrel-<serialization>}), and nothing else:
 *
 * <pre>
 * request:  | length (4, counts what follows) | request id (8) | workload ordinal (1) | serialized argument |
 * response: | length (4)                      | request id (8) | status (1)           | serialized result,  |
 *                                                                 0 ok, 1 failed        | or UTF-8 message    |
 * </pre>
 *
 * The server deserializes the argument, calls {@link BenchmarkServiceImpl} and serializes the result
 * on the event loop, writing in {@code channelRead} and flushing in {@code channelReadComplete}. The
 * client ({@link RawRpcClient}) serializes on the calling thread, shares one connection among all
 * callers, and completes each call's future by request id on the event loop, where it deserializes
 * the result. Between this and {@code kestrel-<serialization>} the only difference is the framework.
 */
public final class RawRpcSystem implements BenchSystem {
    /** Prefix of the system names: {@code raw-rpc-kryo}, {@code raw-rpc-fory-compatible}, ... */
    public static final String PREFIX = "raw-rpc-";

    private static final Logger log = LoggerFactory.getLogger(RawRpcSystem.class);
    static final int MAX_FRAME_BYTES = 16 * 1024 * 1024;
    static final byte OK = 0;
    static final byte FAILED = 1;

    private final String variantName;
    private final SerializationVariant variant;
    private final SystemSettings settings;

    /** @param variant a serialization name as {@link SerializationVariant} reads it, e.g. "kryo-compatible" */
    public RawRpcSystem(String variant, SystemSettings settings) {
        this.variantName = variant;
        this.variant = SerializationVariant.of(variant);
        this.settings = settings;
    }

    @Override
    public String name() {
        return PREFIX + variantName;
    }

    /** The serialization variant, e.g. "kryo-compatible": {@code kestrel-<variant>} is measured against this. */
    public String variant() {
        return variantName;
    }

    @Override
    public String description() {
        return "minimal RPC on raw Netty with the framework's " + variant.serialization() + " serializer"
                + (variant.compatible() ? " (compatible mode)" : "") + " and DemoOptimizer at both ends: length prefix,"
                + " request id, server de/serializes on the event loop, one shared client connection, futures matched"
                + " by request id; bytes counted by a handler at the head of the client pipeline";
    }

    @Override
    public String unavailableReason() {
        return variant.isInstalled() ? null : "serialization '" + variant.serialization()
                + "' is not installed (installed: " + Encodings.installedNames().keySet() + ")";
    }

    @Override
    public long argumentBytes(Workload workload) {
        return variant.isInstalled() ? Encodings.encode(variantName, workload.argument()).length : -1;
    }

    /** The serializer both ends use: the one {@code kestrel-<variant>}'s frames carry. */
    Serializer serializer() {
        return Encodings.serializer(variantName, true);
    }

    @Override
    public BenchServer startServer() throws InterruptedException {
        ServerHandler handler = new ServerHandler(serializer(), new BenchmarkServiceImpl());
        return NettyGroups.serve("raw-rpc-server", p -> p
                .addLast("frame", frameDecoder())
                .addLast("rpc", handler), () -> {
                });
    }

    @Override
    public BenchClient openClient(String host, int port) throws Exception {
        RawRpcClient client = RawRpcClient.connect(host, port, serializer(), settings.callTimeout());
        return new BenchClient() {
            @Override
            public Caller newCaller(Workload workload) {
                Object argument = workload.argument();
                Object expected = workload.expectedResult();
                return () -> ResultCheck.check(workload, expected, client.call(workload, argument));
            }

            @Override
            public AsyncCaller newAsyncCaller(Workload workload) {
                Object argument = workload.argument();
                Object expected = workload.expectedResult();
                return () -> client.start(workload, argument).thenApply(v -> {
                    ResultCheck.check(workload, expected, v);
                    return v;
                });
            }

            @Override
            public long bytesWritten() {
                return client.bytesWritten();
            }

            @Override
            public long bytesRead() {
                return client.bytesRead();
            }

            @Override
            public void close() {
                client.close();
            }
        };
    }

    /** Splits the stream at the 4-byte length prefix and strips it. */
    static LengthFieldBasedFrameDecoder frameDecoder() {
        return new LengthFieldBasedFrameDecoder(MAX_FRAME_BYTES, 0, 4, 0, 4);
    }

    /** Answers each request on the event loop: deserialize, call the service, serialize, write. */
    @Sharable
    private static final class ServerHandler extends SimpleChannelInboundHandler<ByteBuf> {
        private static final Workload[] WORKLOADS = Workload.values();
        private final Serializer serializer;
        private final BenchmarkService service;

        ServerHandler(Serializer serializer, BenchmarkService service) {
            this.serializer = serializer;
            this.service = service;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
            long id = frame.readLong();
            int ordinal = frame.readUnsignedByte();
            ByteBuf out = ctx.alloc().ioBuffer();
            out.writeInt(0).writeLong(id).writeByte(OK);
            try {
                if (ordinal >= WORKLOADS.length) {
                    throw new IllegalArgumentException("unknown workload " + ordinal);
                }
                Workload w = WORKLOADS[ordinal];
                Object argument = serializer.deserialize(new ByteBufInputStream(frame), w.argumentType());
                serializer.serialize(w.invoke(service, argument), new ByteBufOutputStream(out));
            } catch (RuntimeException e) {
                log.warn("raw-rpc call {} from {} failed", id, ctx.channel().remoteAddress(), e);
                out.clear().writeInt(0).writeLong(id).writeByte(FAILED)
                        .writeCharSequence(String.valueOf(e), StandardCharsets.UTF_8);
            }
            out.setInt(0, out.readableBytes() - 4);
            ctx.write(out);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            log.warn("raw-rpc connection {} failed; closing", ctx.channel().remoteAddress(), cause);
            ctx.close();
        }
    }
}
