package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.api.RpcException;
import io.kestrel.rpc.api.security.CallerIdentity;
import io.kestrel.rpc.transport.internal.tls.CallerState;
import io.kestrel.rpc.transport.internal.tls.IdentityHandler;
import io.kestrel.rpc.transport.internal.tls.TlsFailures;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.spi.RefusedException;
import io.kestrel.rpc.transport.spi.ServerDispatcher;
import io.kestrel.rpc.transport.internal.stream.ServerStream;
import io.kestrel.rpc.transport.internal.stream.ServerStreams;
import io.kestrel.rpc.transport.internal.stream.StreamFrames;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.DecoderException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The provider's request path on the event loop, for one connection: reads a request's body up to
 * the arguments ({@link RequestDecoder}), binds its method reference to the method and serializer
 * ({@link MethodTable}), refuses callers the method's service does not admit, and hands the call to
 * the business executor ({@link Admission}) as a {@link ServerCall}, or runs it here when its method
 * is dispatched direct ({@link io.kestrel.rpc.transport.spi.ServerMethod#direct()}). Whatever fails here
 * is answered with the status that says so; the connection is closed only when the frame stream
 * itself cannot be trusted.
 */
public final class RequestHandler extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(RequestHandler.class);

    private final MethodTable methods;
    private final Admission admission;
    private final ResponseWriter out;
    private final int maxBodyBytes;
    private final int maxCalls;
    private final MemoryBudget budget;
    private final AtomicInteger calls = new AtomicInteger();
    private final ServerStreams streams;
    private final CallerState caller;
    private final ReadBurst burst;
    private String remote = "?";

    /**
     * @param maxCalls calls of this connection running or queued at once; more are answered busy
     * @param budget the provider's memory budget, for messages (null: none)
     */
    public RequestHandler(ServerDispatcher dispatcher, Admission admission, ResponseWriter out, int maxBodyBytes,
            int maxCalls, MemoryBudget budget) {
        this(dispatcher, admission, out, maxBodyBytes, maxCalls, budget, new CallerState("it sent no token"));
    }

    /** @param caller who the connection's caller is (see {@link IdentityHandler}) */
    public RequestHandler(ServerDispatcher dispatcher, Admission admission, ResponseWriter out, int maxBodyBytes,
            int maxCalls, MemoryBudget budget, CallerState caller) {
        this(dispatcher, admission, out, maxBodyBytes, maxCalls, budget, caller, new ServerStreams());
    }

    /** @param streams the connection's open streams (with the protocol's {@code stream-idle-timeout}) */
    public RequestHandler(ServerDispatcher dispatcher, Admission admission, ResponseWriter out, int maxBodyBytes,
            int maxCalls, MemoryBudget budget, CallerState caller, ServerStreams streams) {
        this.streams = streams;
        this.caller = caller;
        this.methods = new MethodTable(dispatcher);
        this.admission = admission;
        this.out = out;
        this.maxBodyBytes = maxBodyBytes;
        this.maxCalls = maxCalls;
        this.budget = budget;
        this.burst = new ReadBurst(this, admission, out);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().remoteAddress() instanceof InetSocketAddress addr) {
            remote = addr.getHostString() + ":" + addr.getPort();
        }
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Frame f = (Frame) msg;
        if (StreamFrames.isStream(f)) {
            boolean kept = false;
            try {
                kept = f.isRequest() && streams.onFrame(f);
            } finally {
                if (!kept) {
                    discard(f);
                }
            }
            return;
        }
        if (!f.isRequest() || f.isEvent()) {
            discard(f); // a stray response or an unknown event: nothing waits for it here
            return;
        }
        if (f.definitionPrefix != null) {
            defineSkipped(f);
        }
        if (f.overBudget) {
            out.error(f, Status.SERVER_BUSY, "provider " + ctx.channel().localAddress() + " is over its memory budget ("
                    + budget.used() + " of " + budget.limit() + " bytes held by requests and unsent responses); the call"
                    + " did not run. Retry later or on another provider, or raise memory-budget on the protocol");
            return;
        }
        if (f.oversized()) {
            out.error(f, Status.PAYLOAD_TOO_LARGE, "request body of " + f.bodyLength + " bytes exceeds the provider's"
                    + " payload limit of " + maxBodyBytes + " bytes; send less data or raise payload on the provider's"
                    + " protocol");
            return;
        }
        RequestDecoder.Head head;
        MethodTable.Entry entry;
        Serializer serializer;
        try {
            head = RequestDecoder.readHead(f.body, f.hasMethodDef());
            entry = head.descriptor() != null ? methods.define(head.methodRef(), head.descriptor())
                    : methods.get(head.methodRef());
            if (entry.method() == null) {
                discard(f);
                out.error(f, entry.failure(), entry.error());
                return;
            }
        } catch (RuntimeException e) {
            badRequest(f, e);
            return;
        }
        CallerIdentity identity = caller.identity();
        try {
            // before the arguments are decoded (a refused caller costs no deserialization) and before the
            // serializer is chosen (a refusal of it would tell the service's serializations to a stranger)
            entry.method().admit(identity, caller.anonymousBecause());
        } catch (RefusedException e) {
            discard(f);
            out.error(f, e.status(), e.getMessage());
            return;
        }
        try {
            serializer = entry.serializer(f.serializationId);
        } catch (RuntimeException e) {
            badRequest(f, e);
            return;
        }
        if (admission.closing()) {
            discard(f);
            out.error(f, Status.SERVER_BUSY, "provider " + ctx.channel().localAddress()
                    + " is shutting down; the call did not run, retry on another provider");
            return;
        }
        if (calls.incrementAndGet() > maxCalls) {
            calls.decrementAndGet();
            discard(f);
            out.error(f, Status.SERVER_BUSY, "provider " + ctx.channel().localAddress() + " is busy with " + maxCalls
                    + " calls of this connection, its share of the business threads (calls-per-connection); the call"
                    + " did not run. Retry later or on another provider");
            return;
        }
        ServerStream stream = null;
        if (entry.method().stream() != null) {
            long deadline = head.timeoutMillis() > 0 ? f.receivedNanos() + head.timeoutMillis() * 1_000_000L : 0L;
            stream = streams.open(f, entry.method(), serializer, out, ctx.channel(), deadline, maxBodyBytes,
                    entry.direct() ? ctx.channel().eventLoop() : admission.executor());
            if (stream == null) {
                calls.decrementAndGet();
                discard(f);
                out.error(f, Status.SERVER_BUSY, streams.refusal(f));
                return;
            }
        }
        ServerCall call = new ServerCall(f, head, entry.method(), entry.direct(), serializer, remote, identity, out,
                admission, calls, stream);
        if (entry.direct()) {
            admission.runHere(call); // dispatch="direct": the method never blocks, no hand-off
            return;
        }
        if (CallBatch.ENABLED && stream == null) {
            burst.add(ctx, call); // handed over with the rest of this read burst, one wake-up for all
        } else if (!admission.submit(call)) {
            if (stream != null) {
                stream.notStarted();
            }
            refuseBusy(ctx, call);
        }
    }

    /** The connection's open streams. */
    public ServerStreams streams() {
        return streams;
    }

    /** A call the business pool did not take: it did not run. */
    void refuseBusy(ChannelHandlerContext ctx, ServerCall call) {
        Frame f = call.frame();
        calls.decrementAndGet();
        discard(f);
        out.error(f, Status.SERVER_BUSY, "provider " + ctx.channel().localAddress()
                + " is busy: all business threads and queue slots are taken; the call did not run."
                + " Retry later or on another provider, or raise threads/queues on the protocol");
    }

    /** Streams open now on this connection. */
    public int openStreams() {
        return streams.size();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        streams.closeAll();
        super.channelInactive(ctx);
    }

    /** Defines the method of a request whose body was skipped, so later calls of it still resolve. */
    private void defineSkipped(Frame f) {
        try {
            RequestDecoder.Head definition = RequestDecoder.readDefinition(f.definitionPrefix);
            methods.define(definition.methodRef(), definition.descriptor());
        } catch (RuntimeException e) {
            log.debug("Skipped request {} from {} has no readable method definition: {}", f.requestId, remote,
                    e.toString());
        } finally {
            f.release();
        }
    }

    /** The request will not run: its body and its share of the memory budget are given back. */
    private void badRequest(Frame f, RuntimeException e) {
        discard(f);
        boolean described = e instanceof CorruptedFrameException || e instanceof RpcException;
        out.error(f, Status.ofRequestFailure(e), "bad request " + f.requestId + ": "
                + (described ? e.getMessage() : e.toString()));
    }

    private static void discard(Frame f) {
        f.release();
        f.done();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (TlsFailures.isTls(cause)) {
            // a failed handshake is logged once, with its reason, by IdentityHandler
            log.debug("TLS failure on the connection from {}: {}", remote, cause.toString());
        } else if (cause instanceof DecoderException) {
            log.warn("Closing connection from {}: {}", remote, cause.getCause() != null ? cause.getCause().getMessage()
                    : cause.getMessage());
        } else if (cause instanceof IOException) {
            log.debug("Connection from {} failed: {}", remote, cause.toString());
        } else {
            log.warn("Closing connection from {} after an unexpected error", remote, cause);
        }
        ctx.close();
    }
}
