package io.kestrel.rpc.transport.internal.dubbo;

import io.kestrel.rpc.api.DecodeLimitException;
import io.kestrel.rpc.api.RpcException;
import io.kestrel.rpc.api.security.CallerIdentity;
import io.kestrel.rpc.api.serialization.DecodeBudget;
import io.kestrel.rpc.api.serialization.DecodeLimits;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.internal.ResponseAttachments;
import io.kestrel.rpc.transport.spi.IncomingCall;
import io.kestrel.rpc.transport.spi.RefusedException;
import io.kestrel.rpc.transport.spi.ServerDispatcher;
import io.kestrel.rpc.transport.spi.ServerMethod;
import io.netty.buffer.ByteBufInputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One dubbo-protocol call on a business thread: decode the arguments and attachments within the serializer's
 * decode budget and the port's decode deadline ({@link DubboPipeline#decodeDeadlineMillis}), drop it if it waited
 * past its caller's timeout, resolve the exact group, run the method
 * through the same invocation layer as native calls, answer. Owns the request frame's body and releases it once
 * decoded.
 */
final class DubboServerCall extends ResponseAttachments implements Runnable, IncomingCall {
    private static final Logger log = LoggerFactory.getLogger(DubboServerCall.class);

    private final DubboFrame frame;
    private final DubboRequestHead head;
    private ServerMethod method;
    private final Serializer serializer;
    private final byte dubboId;
    private final ServerDispatcher dispatcher;
    private final String remote;
    private final DubboResponseWriter out;
    private final Consumer<DubboFrame> onFinished;
    private final long receivedNanos = System.nanoTime();
    private final long decodeDeadlineMillis;
    private Map<String, String> attachments = Map.of();
    private int timeoutMillis;

    DubboServerCall(DubboFrame frame, DubboRequestHead head, ServerMethod method, Serializer serializer, byte dubboId,
            ServerDispatcher dispatcher, String remote, DubboResponseWriter out, Consumer<DubboFrame> onFinished,
            long decodeDeadlineMillis) {
        this.decodeDeadlineMillis = decodeDeadlineMillis;
        this.frame = frame;
        this.head = head;
        this.method = method;
        this.serializer = serializer;
        this.dubboId = dubboId;
        this.dispatcher = dispatcher;
        this.remote = remote;
        this.out = out;
        this.onFinished = onFinished;
    }

    @Override
    public void run() {
        boolean async = false;
        try {
            Object[] args;
            try {
                args = decode();
            } catch (RuntimeException e) {
                boolean late = e instanceof DecodeLimitException d && d.limit() == DecodeLimits.Limit.DEADLINE;
                error(late ? Status.SERVER_TIMEOUT : Status.ofRequestFailure(e), method.displayName() + " request "
                        + frame.requestId + " from " + remote + " could not be read with " + serializer.name() + ": "
                        + (e instanceof RpcException ? e.getMessage() : e.toString()) + (late ? " (this dubbo port"
                        + " decodes arguments within " + decodeDeadlineMillis + " ms of their arrival: -D"
                        + DubboPipeline.DECODE_DEADLINE_PROPERTY + ")" : ""));
                return;
            } finally {
                frame.release();
            }
            long waitedMs = (System.nanoTime() - receivedNanos) / 1_000_000;
            if (timeoutMillis > 0 && waitedMs >= timeoutMillis) {
                error(Status.SERVER_TIMEOUT, method.displayName() + " request " + frame.requestId + " waited "
                        + waitedMs + " ms, beyond the caller's timeout of " + timeoutMillis
                        + " ms; dropped without running");
                return;
            }
            Object result;
            try {
                result = method.invoke(args, this);
            } catch (Throwable t) {
                answerFailure(t);
                return;
            }
            if (result instanceof CompletionStage<?> stage) {
                async = true;
                stage.whenComplete((value, error) -> {
                    try {
                        if (error != null) {
                            answerFailure(unwrap(error));
                        } else {
                            answer(value, null);
                        }
                    } finally {
                        onFinished.accept(frame);
                    }
                });
            } else {
                answer(result, null);
            }
        } catch (Throwable t) {
            log.error("Unexpected failure serving {} dubbo request {} from {}", method.displayName(), frame.requestId,
                    remote, t);
            error(Status.SERVER_ERROR, "provider failed serving " + method.displayName() + ": " + t);
        } finally {
            if (!async) {
                onFinished.accept(frame);
            }
        }
    }

    /** Reads the arguments and the attachments; resolves the exact group's method. */
    private Object[] decode() {
        Class<?>[] types = method.parameterTypes();
        // the caller's timeout travels in the attachments, after the arguments: decoding is held to the port's
        // decode deadline instead, and the caller's timeout drops the call afterwards if it has passed
        DecodeBudget budget = DecodeBudget.withDeadline(serializer.decodeLimits(),
                receivedNanos + decodeDeadlineMillis * 1_000_000L);
        int offset = head.argumentsOffset() - frame.body.readerIndex();
        frame.body.skipBytes(offset);
        Object[] args = serializer.readSequence(new ByteBufInputStream(frame.body), budget, values -> {
            Object[] read = new Object[types.length];
            for (int i = 0; i < types.length; i++) {
                read[i] = values.read(types[i]);
            }
            if (!values.atEnd()) {
                attachments = strings(values.read(Map.class));
            }
            return read;
        });
        timeoutMillis = parseTimeout(attachments.get("timeout"));
        String group = attachments.getOrDefault("group", "");
        if (!group.isEmpty() || method.displayName().contains("/")) {
            ServerMethod exact = dispatcher.resolve(head.descriptor(group));
            if (exact != method) {
                exact.serializer(serializer.id()); // the exact service's accepted serializations
                method = exact;
            }
        }
        return args;
    }

    /** Dubbo 3 attachments may hold other values than text; the text of the simple ones is kept. */
    private static Map<String, String> strings(Object map) {
        if (!(map instanceof Map<?, ?> m) || m.isEmpty()) {
            return Map.of();
        }
        Map<String, String> text = new HashMap<>();
        m.forEach((k, v) -> {
            if (k instanceof String key && (v instanceof String || v instanceof Number || v instanceof Boolean)) {
                text.put(key, v.toString());
            }
        });
        return Map.copyOf(text);
    }

    private static int parseTimeout(String text) {
        if (text == null) {
            return 0;
        }
        try {
            return Math.max(0, Integer.parseInt(text.trim()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private void answer(Object value, Throwable thrown) {
        if (frame.isTwoWay()) {
            out.result(frame.requestId, head.dubboVersion(), method, serializer, dubboId, value, thrown,
                    answerAttachments());
        }
    }

    private void error(Status status, String message) {
        if (frame.isTwoWay()) {
            out.error(frame.requestId, dubboId, serializer, status, message);
        }
    }

    private void answerFailure(Throwable t) {
        if (t instanceof RefusedException r) {
            error(r.status(), r.getMessage());
        } else {
            answer(null, readable(t));
        }
    }

    /**
     * What a stock Dubbo consumer can read: exceptions the method declares and JDK exceptions as they are; any
     * other becomes a RuntimeException whose message is its type and message (Dubbo's ExceptionFilter does the
     * same for exceptions outside the interface's jar, and Dubbo 3.3 consumers refuse classes outside the
     * interface's signatures anyway).
     */
    private Throwable readable(Throwable t) {
        String name = t.getClass().getName();
        if (method.declares(t) || name.startsWith("java.") || name.startsWith("javax.")) {
            return t;
        }
        RuntimeException wrapped = new RuntimeException(t.toString());
        wrapped.setStackTrace(t.getStackTrace());
        return wrapped;
    }

    @Override
    public Map<String, String> attachments() {
        return attachments;
    }

    @Override
    public String remoteAddress() {
        return remote;
    }

    @Override
    public long deadlineNanos() {
        return timeoutMillis > 0 ? receivedNanos + timeoutMillis * 1_000_000L : 0L;
    }

    @Override
    public int timeoutMillis() {
        return timeoutMillis;
    }

    @Override
    public int requestBytes() {
        return frame.bodyLength;
    }

    @Override
    public String serialization() {
        return serializer.name();
    }

    @Override
    public CallerIdentity caller() {
        return null;
    }

    private static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
