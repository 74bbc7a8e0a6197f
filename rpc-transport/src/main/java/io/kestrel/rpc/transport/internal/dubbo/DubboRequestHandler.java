package io.kestrel.rpc.transport.internal.dubbo;

import io.kestrel.rpc.api.RpcException;
import io.kestrel.rpc.api.ServiceNotFoundException;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.spi.RefusedException;
import io.kestrel.rpc.transport.internal.Admission;
import io.kestrel.rpc.transport.internal.MemoryBudget;
import io.kestrel.rpc.transport.spi.ServerDispatcher;
import io.kestrel.rpc.transport.spi.ServerMethod;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.timeout.IdleStateEvent;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The provider's dubbo-protocol request path on the event loop, for one connection: answers heartbeats, reads
 * a request's head ({@link DubboRequestHead}), resolves its method, checks that the method's service accepts
 * the frame's serialization (CVE-2021-25641: a caller does not get to pick the decoder), refuses callers the
 * service does not admit, and hands the call to the business executor ({@link Admission}) as a
 * {@link DubboServerCall}, under the same per-connection share of calls as the native protocol. What fails here
 * is answered with the status that says so; the connection is closed only when the frame stream itself cannot
 * be trusted.
 */
final class DubboRequestHandler extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(DubboRequestHandler.class);

    private final ServerDispatcher dispatcher;
    private final Admission admission;
    private final DubboResponseWriter out;
    private final int maxCalls;
    private final MemoryBudget budget;
    private final AtomicInteger calls = new AtomicInteger();
    private final String remote;
    private final long decodeDeadlineMillis;

    /** @param decodeDeadlineMillis a call's arguments must be decoded within this from its frame's arrival */
    DubboRequestHandler(ServerDispatcher dispatcher, Admission admission, DubboResponseWriter out, int maxCalls,
            MemoryBudget budget, String remote, long decodeDeadlineMillis) {
        this.decodeDeadlineMillis = decodeDeadlineMillis;
        this.dispatcher = dispatcher;
        this.admission = admission;
        this.out = out;
        this.maxCalls = maxCalls;
        this.budget = budget;
        this.remote = remote;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        DubboFrame f = (DubboFrame) msg;
        if (!f.isRequest()) {
            done(f); // a response to nothing this side sent, or to its own heartbeat: nothing waits for it
            return;
        }
        byte dubboId = f.serializationId();
        byte kestrelId = DubboWire.kestrelSerializationId(dubboId);
        // answers that carry no value (heartbeats, errors) are written as hessian2 by hand: no serializer needed
        Serializer answering = null;
        if (f.isEvent()) {
            done(f);
            if (f.isTwoWay()) {
                out.heartbeat(f.requestId, DubboWire.DUBBO_HESSIAN2);
            }
            return;
        }
        if (f.body == null) {
            done(f);
            answer(f, DubboWire.kestrelStatus(f.skippedStatus), "request " + f.requestId + " refused: " + f.skippedBecause,
                    answering, dubboId);
            return;
        }
        if (kestrelId < 0) {
            done(f);
            out.error(f.requestId, DubboWire.DUBBO_HESSIAN2, null, Status.BAD_REQUEST, "dubbo request " + f.requestId
                    + " uses serialization id " + dubboId + ", which this provider does not speak on the dubbo"
                    + " protocol; it speaks hessian2 (id 2) and fastjson2 (id 23). Set serialization=\"hessian2\" on"
                    + " the Dubbo consumer");
            return;
        }
        DubboRequestHead head;
        ServerMethod method;
        Serializer serializer;
        try {
            head = DubboRequestHead.read(f.body, dubboId);
            method = resolve(head);
            if (method.reserved()) {
                throw new ServiceNotFoundException(method.displayName() + " is not available on the dubbo protocol:"
                        + " generic invocation ($invoke) and metadata ($metadata) are answered on the provider's"
                        + " kestrel protocol port only (Dubbo's generic calls name classes, which Kestrel never"
                        + " builds). Call the service through its interface here, or through a Kestrel GenericService"
                        + " on the kestrel port");
            }
            serializer = method.serializer(kestrelId); // the service's own list: pinning before any value is read
        } catch (RuntimeException e) {
            done(f);
            boolean described = e instanceof RpcException;
            answer(f, Status.ofRequestFailure(e), "bad request " + f.requestId + ": " + (described ? e.getMessage()
                    : e.toString()), answering, dubboId);
            return;
        }
        try {
            method.admit(null, "the dubbo protocol carries no caller identity");
        } catch (RefusedException e) {
            done(f);
            answer(f, e.status(), e.getMessage(), answering, dubboId);
            return;
        }
        if (admission.closing()) {
            done(f);
            answer(f, Status.SERVER_BUSY, "provider " + ctx.channel().localAddress() + " is shutting down; the call"
                    + " did not run, retry on another provider", answering, dubboId);
            return;
        }
        if (calls.incrementAndGet() > maxCalls) {
            calls.decrementAndGet();
            done(f);
            answer(f, Status.SERVER_BUSY, "provider " + ctx.channel().localAddress() + " is busy with " + maxCalls
                    + " calls of this connection (calls-per-connection); the call did not run. Retry later or on"
                    + " another provider", answering, dubboId);
            return;
        }
        DubboServerCall call = new DubboServerCall(f, head, method, serializer, dubboId, dispatcher, remote, out,
                this::finished, decodeDeadlineMillis);
        if (method.direct()) {
            admission.runHere(call); // dispatch="direct", or a CompletableFuture method: as on the native protocol
            return;
        }
        if (!admission.submit(call)) {
            calls.decrementAndGet();
            done(f);
            answer(f, Status.SERVER_BUSY, "provider " + ctx.channel().localAddress() + " is busy: all business"
                    + " threads and queue slots are taken; the call did not run. Retry later or on another provider,"
                    + " or raise threads/queues on the protocol", answering, dubboId);
        }
    }

    /**
     * The method with the request's path, version and parameters: of the service without a group if there is
     * one, else of any group (Dubbo sends the group in the attachments, after the arguments; the call re-checks
     * the exact group once they are read).
     */
    private ServerMethod resolve(DubboRequestHead head) {
        try {
            return dispatcher.resolve(head.descriptor(""));
        } catch (ServiceNotFoundException notWithoutGroup) {
            ServerMethod any = dispatcher.resolveInAnyGroup(head.descriptor(""));
            if (any == null) {
                throw notWithoutGroup;
            }
            return any;
        }
    }

    private void answer(DubboFrame f, Status status, String message, Serializer serializer, byte dubboId) {
        if (f.isTwoWay()) {
            out.error(f.requestId, DubboWire.DUBBO_HESSIAN2, serializer, status, message);
        }
    }

    /** A call admitted by this handler ended: its budget, connection slot and admission are given back. */
    private void finished(DubboFrame f) {
        if (f.reserved > 0 && budget != null) {
            budget.release(f.reserved);
        }
        calls.decrementAndGet();
        admission.finished();
    }

    /** The frame will not run: its body and its share of the memory budget are given back. */
    private void done(DubboFrame f) {
        f.release();
        if (f.reserved > 0 && budget != null) {
            budget.release(f.reserved);
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent) {
            log.info("Closing dubbo connection from {}: nothing received for longer than the idle limit", remote);
            ctx.close();
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof DecoderException) {
            log.warn("Closing dubbo connection from {}: {}", remote, cause.getCause() != null
                    ? cause.getCause().getMessage() : cause.getMessage());
        } else if (cause instanceof IOException) {
            log.debug("Dubbo connection from {} failed: {}", remote, cause.toString());
        } else {
            log.warn("Closing dubbo connection from {} after an unexpected error", remote, cause);
        }
        ctx.close();
    }
}
