package io.kestrel.rpc.observability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.core.RpcRuntime;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What either tracing integration must do, with spans exported to the OpenTelemetry SDK's in-memory
 * exporter, for calls between runtimes A (consumer), B (provider that calls C) and C over loopback
 * sockets: {@link TracingTest} (Micrometer Observation and the OpenTelemetry bridge) and
 * {@link OpenTelemetryTracingTest} (the OpenTelemetry API directly) run the same tests.
 */
abstract class TracingContract {
    private static final String SERVICE = Greeter.class.getName();

    protected final OtelTestTracing otelTracing = new OtelTestTracing();
    protected final InMemorySpanExporter exporter = otelTracing.exporter();
    private final io.opentelemetry.api.trace.Tracer otel = otelTracing.otel();
    protected ThreeRuntimes runtimes;

    /** The tracing interceptors under test, on the SDK of {@link #otelTracing}, added to a runtime being built. */
    protected abstract RpcRuntime.Builder withTracing(RpcRuntime.Builder builder);

    /** The same integration on a tracing library that is off (no-op registry or OpenTelemetry). */
    protected abstract RpcRuntime.Builder withNoopTracing(RpcRuntime.Builder builder);

    @BeforeEach
    void start() {
        runtimes = new ThreeRuntimes(this::withTracing);
    }

    @AfterEach
    void stop() {
        runtimes.close();
        otelTracing.close();
    }

    protected List<SpanData> spans(int count) throws InterruptedException {
        Runtimes.await(count + " finished spans", () -> exporter.getFinishedSpanItems().size() >= count);
        List<SpanData> spans = exporter.getFinishedSpanItems();
        assertEquals(count, spans.size(), "spans: " + spans);
        return spans;
    }

    protected static SpanData one(List<SpanData> spans, SpanKind kind, String method) {
        return spans.stream().filter(s -> s.getKind() == kind && s.getName().equals(SERVICE + "/" + method))
                .findFirst().orElseThrow(() -> new AssertionError("no " + kind + " span " + method + " in " + spans));
    }

    protected static String attr(SpanData span, String key) {
        return span.getAttributes().get(AttributeKey.stringKey(key));
    }

    @Test
    void consumerSpanIsTheParentOfTheProviderSpanAcrossTheSocket() throws Exception {
        assertEquals("hello ada from c", runtimes.aToC.greet("ada"));

        List<SpanData> spans = spans(2);
        SpanData client = one(spans, SpanKind.CLIENT, "greet");
        SpanData server = one(spans, SpanKind.SERVER, "greet");
        assertEquals(client.getTraceId(), server.getTraceId());
        assertEquals(client.getSpanId(), server.getParentSpanId());
        assertEquals(SpanContext.getInvalid().getSpanId(), client.getParentSpanId(), "the consumer's span is a root");
        String traceparent = runtimes.c.lastAttachments.get("greet").get("traceparent");
        assertNotNull(traceparent, "W3C traceparent carried in the request attachments");
        assertTrue(traceparent.startsWith("00-" + client.getTraceId() + "-" + client.getSpanId() + "-"), traceparent);
        assertEquals(1, Integer.parseInt(traceparent.substring(53), 16) & 1, "sampled flag in " + traceparent);
        for (SpanData s : spans) {
            assertEquals("kestrel", attr(s, "rpc.system"));
            assertEquals(SERVICE, attr(s, "rpc.service"));
            assertEquals("greet", attr(s, "rpc.method"));
            assertEquals("ok", attr(s, "status"));
            assertEquals("fory", attr(s, "serialization"));
            assertTrue(s.getStatus().getStatusCode() != StatusCode.ERROR, "no error on " + s);
        }
        assertEquals("127.0.0.1:" + runtimes.runtimeC.boundPort(), attr(client, "server.address"));
        assertNotNull(attr(server, "client.address"));
    }

    @Test
    void aCallThroughThreeRuntimesIsOneTrace() throws Exception {
        assertEquals("b -> hello ada from c", runtimes.aToB.hop("ada"));

        List<SpanData> spans = spans(4);
        SpanData aClient = spans.stream().filter(s -> s.getKind() == SpanKind.CLIENT
                && s.getParentSpanId().equals(SpanContext.getInvalid().getSpanId())).findFirst().orElseThrow();
        SpanData bServer = child(spans, aClient, SpanKind.SERVER);
        SpanData bClient = child(spans, bServer, SpanKind.CLIENT);
        SpanData cServer = child(spans, bClient, SpanKind.SERVER);
        for (SpanData s : List.of(bServer, bClient, cServer)) {
            assertEquals(aClient.getTraceId(), s.getTraceId(), "one trace: " + s);
        }
        assertEquals("127.0.0.1:" + runtimes.runtimeC.boundPort(), attr(bClient, "server.address"));
        assertTrue(cServer.getEndEpochNanos() <= aClient.getEndEpochNanos(), "C ended inside A's call");
    }

    private static SpanData child(List<SpanData> spans, SpanData parent, SpanKind kind) {
        return spans.stream().filter(s -> s.getKind() == kind && s.getParentSpanId().equals(parent.getSpanId()))
                .findFirst().orElseThrow(() -> new AssertionError("no " + kind + " child of " + parent + " in " + spans));
    }

    @Test
    void errorsAndTimeoutsMarkTheSpans() throws Exception {
        assertThrows(IllegalStateException.class, () -> runtimes.aToC.fail("boom"));
        List<SpanData> spans = spans(2);
        for (SpanData s : spans) {
            assertEquals(StatusCode.ERROR, s.getStatus().getStatusCode(), "failed call: " + s);
            assertEquals("service_error", attr(s, "status"));
            assertTrue(s.getEvents().stream().anyMatch(e -> e.getName().equals("exception")), "exception event on " + s);
        }
        exporter.reset();

        Greeter impatient = Runtimes.refer(runtimes.runtimeA, runtimes.runtimeC, Duration.ofMillis(100));
        assertThrows(RpcTimeoutException.class, () -> impatient.hold("ada"));
        runtimes.c.release(); // only now can the provider answer, after the consumer has given up
        spans = spans(2); // the provider's span ends when the held call returns
        SpanData client = one(spans, SpanKind.CLIENT, "hold");
        SpanData server = one(spans, SpanKind.SERVER, "hold");
        assertEquals(StatusCode.ERROR, client.getStatus().getStatusCode());
        assertEquals("timeout", attr(client, "status"));
        long millis = TimeUnit.NANOSECONDS.toMillis(client.getEndEpochNanos() - client.getStartEpochNanos());
        assertTrue(millis >= 100, "the consumer's span lasts at least its 100 ms timeout, was " + millis);
        // ordered by the test, not by a clock budget: the consumer's span ended at its timeout, not at the answer
        assertTrue(client.getEndEpochNanos() < server.getEndEpochNanos(), "the consumer's span ends before the provider's");
        assertEquals(client.getSpanId(), server.getParentSpanId());
    }

    @Test
    void anIncomingTraceAndItsTraceStateContinueThroughTheCall() throws Exception {
        SpanContext remote = SpanContext.createFromRemoteParent("0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331",
                TraceFlags.getSampled(), TraceState.builder().put("vendor", "v1").build());
        Span caller = otel.spanBuilder("caller").setParent(Context.root().with(Span.wrap(remote))).startSpan();
        try (Scope scope = caller.makeCurrent()) {
            runtimes.aToC.greetAsync("ada").get(5, TimeUnit.SECONDS);
        } finally {
            caller.end();
        }
        List<SpanData> spans = spans(3);
        SpanData client = one(spans, SpanKind.CLIENT, "greetAsync");
        assertEquals(caller.getSpanContext().getSpanId(), client.getParentSpanId());
        assertEquals("0af7651916cd43dd8448eb211c80319c", one(spans, SpanKind.SERVER, "greetAsync").getTraceId());
        Map<String, String> sent = runtimes.c.lastAttachments.get("greetAsync");
        assertEquals("vendor=v1", sent.get("tracestate"), "tracestate carried in the request attachments");
        assertTrue(sent.get("traceparent").startsWith("00-0af7651916cd43dd8448eb211c80319c-" + client.getSpanId()));
    }

    @Test
    void tracingThatIsOffMakesNoSpansAndSendsNoTraceContext() {
        try (RpcRuntime consumer = withNoopTracing(RpcRuntime.builder()).build()) {
            Runtimes.refer(consumer, runtimes.runtimeC, Duration.ofSeconds(5)).greet("ada");
        }
        assertEquals(Map.of(), runtimes.c.lastAttachments.get("greet"));
    }

    private static SpanData ticker(List<SpanData> spans, SpanKind kind, String method) {
        return spans.stream().filter(s -> s.getKind() == kind && s.getName().equals(Ticker.class.getName() + "/" + method))
                .findFirst().orElseThrow(() -> new AssertionError("no " + kind + " span " + method + " in " + spans));
    }

    /** Any attribute's value as text: the Observation bridge sets strings, the OpenTelemetry API longs. */
    protected static String anyAttr(SpanData span, String key) {
        return span.getAttributes().asMap().entrySet().stream().filter(e -> e.getKey().getKey().equals(key))
                .map(e -> String.valueOf(e.getValue())).findFirst().orElse(null);
    }

    @Test
    void aStreamIsOneSpanPerSideEndedWhenItEndsWithItsMessageCounts() throws Exception {
        RpcRuntime provider = withTracing(RpcRuntime.builder()).protocol(Runtimes.loopback().build()).build();
        RpcRuntime consumer = withTracing(RpcRuntime.builder()).build();
        try {
            provider.export(io.kestrel.rpc.api.config.ServiceConfig.builder(Ticker.class, new TickerImpl()).build());
            Ticker ticker = consumer.refer(io.kestrel.rpc.api.config.ReferenceConfig.builder(Ticker.class)
                    .url("127.0.0.1:" + provider.boundPort()).timeout(Duration.ofSeconds(20)).build());
            Received<String> echoed = new Received<>();
            io.kestrel.rpc.api.stream.StreamObserver<String> in = ticker.echo(echoed);
            for (int i = 0; i < 300; i++) {
                in.onNext("m" + i);
            }
            in.onCompleted();
            assertEquals(null, echoed.end());
            List<SpanData> spans = spans(2);
            SpanData client = ticker(spans, SpanKind.CLIENT, "echo");
            SpanData server = ticker(spans, SpanKind.SERVER, "echo");
            assertEquals(client.getSpanId(), server.getParentSpanId());
            for (SpanData s : spans) {
                assertEquals("ok", attr(s, "status"));
                assertEquals("300", anyAttr(s, "rpc.messages.sent"), s.toString());
                assertEquals("300", anyAttr(s, "rpc.messages.received"), s.toString());
            }

            exporter.reset();
            Received<Integer> endless = new Received<>();
            ticker.endless(endless);
            Runtimes.await("messages arrive", () -> endless.count.get() > 20);
            assertTrue(exporter.getFinishedSpanItems().isEmpty(), "an open stream's spans have not ended");
            endless.handle.cancel("enough");
            assertTrue(endless.end() instanceof io.kestrel.rpc.api.stream.StreamCancelledException);
            spans = spans(2);
            for (SpanData s : spans) {
                assertEquals("cancelled", attr(s, "status"), s.toString());
                assertEquals(StatusCode.ERROR, s.getStatus().getStatusCode());
            }
            assertEquals(String.valueOf(endless.count.get()),
                    anyAttr(ticker(spans, SpanKind.CLIENT, "endless"), "rpc.messages.received"));
        } finally {
            consumer.close();
            provider.close();
        }
    }
}
