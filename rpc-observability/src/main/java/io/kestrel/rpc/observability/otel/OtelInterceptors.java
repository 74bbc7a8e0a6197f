package io.kestrel.rpc.observability.otel;

import io.kestrel.rpc.api.interceptor.CallInfo;
import io.kestrel.rpc.api.interceptor.CallOutcome;
import io.kestrel.rpc.api.interceptor.ClientCallInfo;
import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.interceptor.ServerCallInfo;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import io.kestrel.rpc.api.interceptor.CountingStreamListener;
import io.kestrel.rpc.observability.internal.Futures;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;

/**
 * The two span interceptors of {@link KestrelOpenTelemetry}. Each starts a span when the call enters
 * it, makes it current while the rest of the chain runs on that thread, and ends it when the call's
 * future completes: status ERROR with the exception recorded for a failed call, unset otherwise (the
 * OpenTelemetry convention for instrumentation). A stream's span ends when the stream ends (one span per stream),
 * with the attributes {@code rpc.messages.sent} and {@code rpc.messages.received}. Per call: the span, its context
 * and scope, the trace context written or read; names and constant attributes are built once per
 * method ({@link SpanNames}).
 */
final class OtelInterceptors {
    static final AttributeKey<String> STATUS = AttributeKey.stringKey("status");
    static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
    static final AttributeKey<String> CLIENT_ADDRESS = AttributeKey.stringKey("client.address");
    static final AttributeKey<Long> MESSAGES_SENT = AttributeKey.longKey("rpc.messages.sent");
    static final AttributeKey<Long> MESSAGES_RECEIVED = AttributeKey.longKey("rpc.messages.received");

    /** Writes the trace context into the request attachments (modifiable on the consumer until it proceeds). */
    private static final TextMapSetter<Map<String, String>> SETTER = (carrier, key, value) -> {
        if (carrier != null) {
            carrier.put(key, value);
        }
    };

    /** Reads the trace context from the request attachments the provider received. */
    private static final TextMapGetter<Map<String, String>> GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
            return carrier.keySet();
        }

        @Override
        public String get(Map<String, String> carrier, String key) {
            return carrier == null ? null : carrier.get(key);
        }
    };

    private static final Function<ClientInterceptor.Chain, CompletableFuture<Object>> CLIENT_PROCEED =
            ClientInterceptor.Chain::proceed;
    private static final Function<ServerInterceptor.Chain, CompletableFuture<Object>> SERVER_PROCEED =
            ServerInterceptor.Chain::proceed;

    private OtelInterceptors() {
    }

    /** Consumer side: the span starts before the request is sent, so its trace context travels with it. */
    static final class Client implements ClientInterceptor {
        private final Tracer tracer;
        private final TextMapPropagator propagator;
        private final SpanNames names = new SpanNames(true);

        Client(Tracer tracer, TextMapPropagator propagator) {
            this.tracer = tracer;
            this.propagator = propagator;
        }

        @Override
        public CompletableFuture<Object> intercept(Chain chain) {
            ClientCallInfo call = chain.call();
            SpanNames.Method method = names.of(call);
            Context parent = Context.current();
            SpanBuilder builder = tracer.spanBuilder(method.spanName())
                    .setParent(parent)
                    .setSpanKind(SpanKind.CLIENT);
            method.setOn(builder);
            Span span = builder.startSpan();
            Context context = parent.with(span);
            propagator.inject(context, call.requestAttachments(), SETTER);
            // before a reference's first connection its serialization is not known yet: set again at the end
            SpanNames late = call.serialization() == null ? names : null;
            return proceedInScope(context, chain, CLIENT_PROCEED, span, call, SERVER_ADDRESS, late);
        }

        @Override
        public int order() {
            return KestrelOpenTelemetry.ORDER;
        }

        @Override
        public String name() {
            return "opentelemetry (client spans)";
        }
    }

    /** Provider side: the span continues the trace the request's attachments carry. */
    static final class Server implements ServerInterceptor {
        private final Tracer tracer;
        private final TextMapPropagator propagator;
        private final SpanNames names = new SpanNames(false);

        Server(Tracer tracer, TextMapPropagator propagator) {
            this.tracer = tracer;
            this.propagator = propagator;
        }

        @Override
        public CompletableFuture<Object> intercept(Chain chain) {
            ServerCallInfo call = chain.call();
            SpanNames.Method method = names.of(call);
            // the parent comes from the carrier, never from whatever this pooled thread last had current
            Context parent = propagator.extract(Context.root(), call.requestAttachments(), GETTER);
            SpanBuilder builder = tracer.spanBuilder(method.spanName())
                    .setParent(parent)
                    .setSpanKind(SpanKind.SERVER);
            method.setOn(builder);
            String peer = call.peerAddress();
            if (peer != null) {
                builder.setAttribute(CLIENT_ADDRESS, peer);
            }
            Span span = builder.startSpan();
            return proceedInScope(parent.with(span), chain, SERVER_PROCEED, span, call, null, null);
        }

        @Override
        public int order() {
            return KestrelOpenTelemetry.ORDER;
        }

        @Override
        public String name() {
            return "opentelemetry (server spans)";
        }
    }

    /**
     * Runs the rest of the chain ({@code proceed} applied to {@code chain}) with {@code context} current,
     * and ends the span when the call's future completes: at once for a future that has already
     * succeeded (a provider's blocking method), returned as it is; with the error, rethrown, if the
     * chain throws. {@code proceed} is an unbound method reference, so nothing is captured per call to
     * run the chain.
     *
     * @param peerKey the attribute naming the peer, set when the call ends (the consumer learns its
     *        provider only then), or null
     * @param late the names to take the shared attributes from again when the call ends, or null
     */
    private static <C> CompletableFuture<Object> proceedInScope(Context context, C chain,
            Function<C, CompletableFuture<Object>> proceed, Span span, CallInfo call, AttributeKey<String> peerKey,
            SpanNames late) {
        boolean stream = call.isStream();
        if (stream) { // a stream ends (and so does its span) whatever the chain does
            call.addStreamListener(new StreamEnd(span, call, peerKey, late));
        }
        CompletableFuture<Object> result;
        try (Scope scope = context.makeCurrent()) {
            result = proceed.apply(chain);
        } catch (RuntimeException | Error e) {
            if (!stream) {
                end(span, e, call, peerKey, late);
            }
            throw e;
        }
        if (stream) {
            return result;
        }
        if (Futures.succeeded(result)) {
            end(span, null, call, peerKey, late);
            return result;
        }
        return result.whenComplete((value, error) -> end(span, error, call, peerKey, late));
    }

    /** Counts a stream's messages; ends its span when it ends, with the counts as attributes. */
    private static final class StreamEnd extends CountingStreamListener {
        private final Span span;
        private final CallInfo call;
        private final AttributeKey<String> peerKey;
        private final SpanNames late;

        StreamEnd(Span span, CallInfo call, AttributeKey<String> peerKey, SpanNames late) {
            this.span = span;
            this.call = call;
            this.peerKey = peerKey;
            this.late = late;
        }

        @Override
        public void onEnd(Throwable error) {
            span.setAttribute(MESSAGES_SENT, sent());
            span.setAttribute(MESSAGES_RECEIVED, received());
            end(span, error, call, peerKey, late);
        }
    }

    /** Status ERROR with the exception recorded for a failed call; a call that succeeded leaves it unset. */
    private static void end(Span span, Throwable error, CallInfo call, AttributeKey<String> peerKey, SpanNames late) {
        if (late != null) {
            late.of(call).setOn(span);
        }
        span.setAttribute(STATUS, CallOutcome.of(error).tag());
        if (peerKey != null) {
            String peer = call.peerAddress();
            if (peer != null) {
                span.setAttribute(peerKey, peer);
            }
        }
        if (error != null) {
            Throwable e = unwrap(error);
            span.recordException(e);
            String message = e.getMessage();
            if (message == null) {
                span.setStatus(StatusCode.ERROR);
            } else {
                span.setStatus(StatusCode.ERROR, message);
            }
        }
        span.end();
    }

    private static Throwable unwrap(Throwable t) {
        Throwable e = t;
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }
}
