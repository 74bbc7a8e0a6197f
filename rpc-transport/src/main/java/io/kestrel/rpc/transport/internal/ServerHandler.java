package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.api.BadRequestException;
import io.kestrel.rpc.api.RpcContext;
import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.ServiceNotFoundException;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.transport.ServerDispatcher;
import io.kestrel.rpc.transport.ServerMethod;
import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.TransportCounters;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.collection.IntObjectHashMap;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Server side of one connection: reads request frames, resolves their method (per-connection
 * method references), hands the call to the business executor, and writes the response. Decoding
 * of arguments and encoding of results happen on the business thread, never on the event loop.
 * One instance per channel: it holds that connection's method table.
 */
public final class ServerHandler extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(ServerHandler.class);

    private final ServerDispatcher dispatcher;
    private final Executor executor;
    private final ServerState state;
    private final int maxBodyBytes;
    private final TransportCounters counters;
    private final IntObjectHashMap<Resolved> methods = new IntObjectHashMap<>();
    private WriteQueue<ByteBuf> writes;
    private String remote;
    private volatile boolean goAwaySent;
    private volatile boolean goAwayAcknowledged;

    /** Shared by all connections of one server: in-flight count and the closing flag. */
    public interface ServerState {
        boolean closing();

        void callStarted();

        void callFinished();
    }

    /** A method reference: the method, or why it could not be resolved. */
    private record Resolved(ServerMethod method, byte status, String error) {
    }

    private static final Resolved NOT_FOUND = new Resolved(null, Status.SERVICE_NOT_FOUND,
            "this method reference names a service or method the provider does not export (see the answer to its definition)");
    private static final Resolved UNRESOLVABLE = new Resolved(null, Status.BAD_REQUEST,
            "this method reference could not be resolved (see the answer to its definition)");

    public ServerHandler(ServerDispatcher dispatcher, Executor executor, ServerState state, int maxBodyBytes,
            TransportCounters counters) {
        this.dispatcher = dispatcher;
        this.executor = executor;
        this.state = state;
        this.maxBodyBytes = maxBodyBytes;
        this.counters = counters;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        Channel ch = ctx.channel();
        writes = new WriteQueue<>(ch, buf -> {
            counters.frameWritten();
            ch.write(buf, ch.voidPromise());
        });
        InetSocketAddress addr = (InetSocketAddress) ch.remoteAddress();
        remote = addr == null ? "?" : addr.getHostString() + ":" + addr.getPort();
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Frame f = (Frame) msg;
        counters.frameRead();
        if (!f.isRequest()) {
            f.release(); // a heartbeat reply or a stray response: nothing waits for it here
            return;
        }
        if (f.isEvent()) {
            f.release();
            if (f.status == Status.GOING_AWAY) {
                goAwayAcknowledged = true; // the consumer sends nothing more on this connection
                return;
            }
            if (f.isTwoWay()) {
                ByteBuf pong = ctx.alloc().ioBuffer(Wire.HEADER_BYTES);
                Wire.writeHeader(pong, Wire.FLAG_EVENT, f.serializationId, Status.OK, f.requestId, 0);
                writes.enqueue(pong);
            }
            return;
        }
        if (f.oversized()) {
            reply(ctx, f, Status.PAYLOAD_TOO_LARGE, "request body of " + f.bodyLength
                    + " bytes exceeds the provider's payload limit of " + maxBodyBytes + " bytes; send less data or raise"
                    + " payload on the provider's protocol");
            return;
        }
        ByteBuf body = f.body;
        ServerMethod method;
        Serializer serializer;
        int timeoutMs;
        Map<String, String> attachments;
        try {
            int ref = Wire.readVarint(body);
            Resolved resolved;
            if (f.hasMethodDef()) {
                String descriptor = Wire.readString(body, Wire.MAX_DESCRIPTOR_BYTES);
                if (ref >= Wire.MAX_METHOD_REFS) {
                    throw new CorruptedFrameException("method reference " + ref + " is beyond the per-connection limit "
                            + Wire.MAX_METHOD_REFS);
                }
                resolved = resolve(descriptor);
                // a failure is answered with its full message now and remembered only as a shared
                // marker, so hostile definitions cannot make the server hold their text
                methods.put(ref, resolved.method != null ? resolved
                        : resolved.status == Status.SERVICE_NOT_FOUND ? NOT_FOUND : UNRESOLVABLE);
            } else {
                resolved = methods.get(ref);
                if (resolved == null) {
                    throw new CorruptedFrameException("unknown method reference " + ref + " on this connection");
                }
            }
            timeoutMs = Wire.readVarint(body);
            attachments = Wire.readAttachments(body);
            if (resolved.method == null) {
                body.release();
                reply(ctx, f, resolved.status, resolved.error);
                return;
            }
            method = resolved.method;
            serializer = method.serializer(f.serializationId);
        } catch (CorruptedFrameException | SerializationException | BadRequestException e) {
            body.release();
            reply(ctx, f, Status.BAD_REQUEST, "bad request " + f.requestId + ": " + e.getMessage());
            return;
        } catch (RuntimeException e) {
            body.release();
            reply(ctx, f, Status.BAD_REQUEST, "bad request " + f.requestId + ": " + e);
            return;
        }
        if (state.closing()) {
            body.release();
            reply(ctx, f, Status.SERVER_BUSY, "provider " + ctx.channel().localAddress()
                    + " is shutting down; the call did not run, retry on another provider");
            return;
        }
        Call call = new Call(ctx, f, method, serializer, timeoutMs, attachments, System.nanoTime());
        state.callStarted();
        try {
            executor.execute(call);
        } catch (RejectedExecutionException e) {
            state.callFinished();
            body.release();
            reply(ctx, f, Status.SERVER_BUSY, "provider " + ctx.channel().localAddress()
                    + " is busy: all business threads and queue slots are taken; the call did not run."
                    + " Retry later or on another provider, or raise threads/queues on the protocol");
        }
    }

    /**
     * Tells the consumer this provider is shutting down, so it routes new calls elsewhere. The
     * consumer acknowledges once it has stopped sending; see {@link #drained()}.
     */
    public void goAway(Channel ch) {
        if (goAwaySent || writes == null) {
            return;
        }
        goAwaySent = true;
        ByteBuf frame = ch.alloc().ioBuffer(Wire.HEADER_BYTES);
        Wire.writeHeader(frame, Wire.FLAG_EVENT, (byte) 0, Status.GOING_AWAY, 0, 0);
        writes.enqueue(frame);
    }

    /** True once the consumer acknowledged {@link #goAway}: every request it sent has arrived. */
    public boolean drained() {
        return goAwayAcknowledged;
    }

    /** Resolves a descriptor; a failure carries a message of bounded length. */
    private Resolved resolve(String descriptor) {
        try {
            return new Resolved(dispatcher.resolve(descriptor), Status.OK, null);
        } catch (ServiceNotFoundException e) {
            return new Resolved(null, Status.SERVICE_NOT_FOUND, bounded(e.getMessage()));
        } catch (RuntimeException e) {
            return new Resolved(null, Status.BAD_REQUEST, bounded("cannot resolve " + descriptor + ": " + e.getMessage()));
        }
    }

    private static String bounded(String message) {
        return message == null || message.length() <= 1024 ? message : message.substring(0, 1024) + "...";
    }

    /** One call on the business executor: decode arguments, invoke, encode the result. */
    private final class Call implements Runnable {
        private final ChannelHandlerContext ctx;
        private final Frame frame;
        private final ServerMethod method;
        private final Serializer serializer;
        private final int timeoutMs;
        private final Map<String, String> attachments;
        private final long receivedNanos;

        Call(ChannelHandlerContext ctx, Frame frame, ServerMethod method, Serializer serializer, int timeoutMs,
                Map<String, String> attachments, long receivedNanos) {
            this.ctx = ctx;
            this.frame = frame;
            this.method = method;
            this.serializer = serializer;
            this.timeoutMs = timeoutMs;
            this.attachments = attachments;
            this.receivedNanos = receivedNanos;
        }

        @Override
        public void run() {
            boolean async = false;
            try {
                long waitedMs = (System.nanoTime() - receivedNanos) / 1_000_000;
                if (timeoutMs > 0 && waitedMs >= timeoutMs) {
                    frame.release();
                    reply(ctx, frame, Status.SERVER_TIMEOUT, method.displayName() + " request " + frame.requestId
                            + " waited " + waitedMs + " ms for a business thread, beyond the caller's timeout of "
                            + timeoutMs + " ms; dropped without running");
                    return;
                }
                Object[] args;
                try {
                    args = decodeArguments();
                } catch (RuntimeException e) {
                    reply(ctx, frame, Status.BAD_REQUEST, "cannot decode the arguments of " + method.displayName()
                            + " with " + serializer.name() + ": " + e.getMessage());
                    return;
                } finally {
                    frame.release();
                }
                Object result;
                RpcContext.Snapshot previous = RpcContext.enter(attachments, remote);
                try {
                    result = method.invoke(args);
                } catch (Throwable t) {
                    writeException(t);
                    return;
                } finally {
                    RpcContext.restore(previous);
                }
                if (result instanceof CompletionStage<?> stage) {
                    async = true;
                    stage.whenComplete((value, error) -> {
                        try {
                            if (error != null) {
                                writeException(unwrap(error));
                            } else {
                                writeValue(value);
                            }
                        } finally {
                            state.callFinished();
                        }
                    });
                } else {
                    writeValue(result);
                }
            } catch (Throwable t) {
                log.error("Unexpected failure serving {} request {} from {}", method.displayName(), frame.requestId, remote, t);
                reply(ctx, frame, Status.SERVER_ERROR, "provider failed serving " + method.displayName() + ": " + t);
            } finally {
                if (!async) {
                    state.callFinished();
                }
            }
        }

        private Object[] decodeArguments() {
            Class<?>[] types = method.parameterTypes();
            Object[] args = new Object[types.length];
            if (types.length == 0) {
                return args;
            }
            ByteBuf body = frame.body;
            int[] lengths = new int[types.length];
            int known = 0;
            for (int i = 0; i < types.length - 1; i++) {
                lengths[i] = Wire.readVarint(body);
                known += lengths[i];
            }
            if (known > body.readableBytes()) {
                throw new CorruptedFrameException("argument lengths add up to " + known + " bytes but only "
                        + body.readableBytes() + " remain");
            }
            lengths[types.length - 1] = body.readableBytes() - known;
            for (int i = 0; i < types.length; i++) {
                ByteBuf slice = body.readSlice(lengths[i]);
                try (ByteBufInputStream in = new ByteBufInputStream(slice)) {
                    args[i] = serializer.deserialize(in, types[i]);
                } catch (java.io.IOException e) {
                    throw new SerializationException("reading argument " + i + " failed: " + e.getMessage(), e);
                }
            }
            return args;
        }

        private void writeValue(Object value) {
            ByteBuf buf = ctx.alloc().ioBuffer(256);
            try {
                buf.writerIndex(Wire.HEADER_BYTES);
                if (value == null) {
                    buf.writeByte(Wire.RESULT_NULL);
                } else {
                    buf.writeByte(Wire.RESULT_VALUE);
                    serializer.serialize(value, new ByteBufOutputStream(buf));
                }
            } catch (RuntimeException e) {
                buf.release();
                reply(ctx, frame, Status.BAD_RESPONSE, "provider cannot serialize the result of " + method.displayName()
                        + " (" + value.getClass().getName() + ") with " + serializer.name() + ": " + e.getMessage());
                return;
            }
            send(buf, Status.OK);
        }

        private void writeException(Throwable t) {
            ByteBuf buf = ctx.alloc().ioBuffer(256);
            buf.writerIndex(Wire.HEADER_BYTES);
            Wire.writeString(buf, t.getClass().getName());
            Wire.writeString(buf, t.getMessage());
            int mark = buf.writerIndex();
            try {
                serializer.serialize(t, new ByteBufOutputStream(buf));
            } catch (RuntimeException e) {
                // the type and message still travel; the consumer rebuilds what it can
                log.debug("Cannot serialize {} thrown by {} with {}: {}", t.getClass().getName(), method.displayName(),
                        serializer.name(), e.toString());
                buf.writerIndex(mark);
            }
            send(buf, Status.SERVICE_ERROR);
        }

        private void send(ByteBuf buf, byte status) {
            int bodyLength = buf.writerIndex() - Wire.HEADER_BYTES;
            if (bodyLength > maxBodyBytes) {
                buf.release();
                reply(ctx, frame, Status.PAYLOAD_TOO_LARGE, "response of " + method.displayName() + " is " + bodyLength
                        + " bytes, over the provider's payload limit of " + maxBodyBytes
                        + " bytes; return less data or raise payload on both sides");
                return;
            }
            int end = buf.writerIndex();
            buf.writerIndex(0);
            Wire.writeHeader(buf, (byte) 0, frame.serializationId, status, frame.requestId, bodyLength);
            buf.writerIndex(end);
            writes.enqueue(buf);
        }
    }

    private static Throwable unwrap(Throwable t) {
        while ((t instanceof java.util.concurrent.CompletionException || t instanceof java.util.concurrent.ExecutionException)
                && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    private void reply(ChannelHandlerContext ctx, Frame request, byte status, String message) {
        if (!request.isTwoWay()) {
            return;
        }
        ByteBuf buf = ctx.alloc().ioBuffer(64 + message.length());
        buf.writerIndex(Wire.HEADER_BYTES);
        Wire.writeString(buf, message);
        int end = buf.writerIndex();
        buf.writerIndex(0);
        Wire.writeHeader(buf, (byte) 0, request.serializationId, status, request.requestId, end - Wire.HEADER_BYTES);
        buf.writerIndex(end);
        writes.enqueue(buf);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent) {
            log.info("No data from consumer {} within the heartbeat window; closing its connection", remote);
            ctx.close();
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof DecoderException) {
            log.warn("Closing connection from {}: {}", remote, cause.getCause() != null ? cause.getCause().getMessage()
                    : cause.getMessage());
        } else if (cause instanceof java.io.IOException) {
            log.debug("Connection from {} failed: {}", remote, cause.toString());
        } else {
            log.warn("Closing connection from {} after an unexpected error", remote, cause);
        }
        ctx.close();
    }
}
