package io.kestrel.rpc.observability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brave.Span.Kind;
import brave.Tracing;
import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.B3Propagation;
import brave.propagation.ThreadLocalCurrentTraceContext;
import brave.propagation.TraceContext;
import brave.sampler.Sampler;
import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.observability.tracing.KestrelTracing;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.brave.bridge.BraveBaggageManager;
import io.micrometer.tracing.brave.bridge.BraveCurrentTraceContext;
import io.micrometer.tracing.brave.bridge.BravePropagator;
import io.micrometer.tracing.brave.bridge.BraveTracer;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link KestrelTracing} on the other bridge micrometer-tracing offers, Brave, wired as an application
 * would (Brave's {@code Tracing}, the bridge's tracer and propagator, the three tracing handlers) with
 * B3 single-header propagation instead of W3C: the trace context travels in whatever attachments the
 * bridge's propagator writes. {@link ThreeRuntimes} A, B and C; finished spans collected by a Brave
 * {@link SpanHandler}.
 */
class BraveTracingTest {
    private static final String SERVICE = Greeter.class.getName();

    private final List<MutableSpan> finished = new CopyOnWriteArrayList<>();
    private final Tracing brave = Tracing.newBuilder().localServiceName("kestrel-test")
            .currentTraceContext(ThreadLocalCurrentTraceContext.create())
            .propagationFactory(B3Propagation.newFactoryBuilder().injectFormat(B3Propagation.Format.SINGLE).build())
            .sampler(Sampler.ALWAYS_SAMPLE)
            .addSpanHandler(new SpanHandler() {
                @Override
                public boolean end(TraceContext context, MutableSpan span, Cause cause) {
                    if (cause == Cause.FINISHED) {
                        finished.add(span);
                    }
                    return true;
                }
            }).build();
    private ThreeRuntimes runtimes;

    private RpcRuntime.Builder withTracing(RpcRuntime.Builder builder) {
        BraveTracer tracer = new BraveTracer(brave.tracer(), new BraveCurrentTraceContext(brave.currentTraceContext()),
                new BraveBaggageManager());
        BravePropagator propagator = new BravePropagator(brave);
        ObservationRegistry observations = ObservationRegistry.create();
        observations.observationConfig().observationHandler(new ObservationHandler.FirstMatchingCompositeObservationHandler(
                new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
                new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
                new DefaultTracingObservationHandler(tracer)));
        return KestrelTracing.of(observations).addTo(builder);
    }

    @BeforeEach
    void start() {
        runtimes = new ThreeRuntimes(this::withTracing);
    }

    @AfterEach
    void stop() {
        runtimes.close();
        brave.close();
    }

    private List<MutableSpan> spans(int count) throws InterruptedException {
        Runtimes.await(count + " finished spans", () -> finished.size() >= count);
        List<MutableSpan> spans = List.copyOf(finished);
        assertEquals(count, spans.size(), "spans: " + spans);
        return spans;
    }

    private static MutableSpan one(List<MutableSpan> spans, Kind kind, String method) {
        return spans.stream().filter(s -> s.kind() == kind && (SERVICE + "/" + method).equals(s.name()))
                .findFirst().orElseThrow(() -> new AssertionError("no " + kind + " span " + method + " in " + spans));
    }

    private static MutableSpan child(List<MutableSpan> spans, MutableSpan parent, Kind kind) {
        return spans.stream().filter(s -> s.kind() == kind && parent.id().equals(s.parentId()))
                .findFirst().orElseThrow(() -> new AssertionError("no " + kind + " child of " + parent + " in " + spans));
    }

    @Test
    void consumerSpanIsTheParentOfTheProviderSpanWithB3InTheAttachments() throws Exception {
        assertEquals("hello ada from c", runtimes.aToC.greet("ada"));

        List<MutableSpan> spans = spans(2);
        MutableSpan client = one(spans, Kind.CLIENT, "greet");
        MutableSpan server = one(spans, Kind.SERVER, "greet");
        assertEquals(client.traceId(), server.traceId());
        assertEquals(client.id(), server.parentId());
        assertNull(client.parentId(), "the consumer's span is a root");
        Map<String, String> sent = runtimes.c.lastAttachments.get("greet");
        String b3 = sent.get("b3");
        assertNotNull(b3, "B3 single header carried in the request attachments: " + sent);
        assertTrue(b3.startsWith(client.traceId() + "-" + client.id() + "-1"), b3);
        for (MutableSpan s : spans) {
            assertEquals("kestrel", s.tag("rpc.system"));
            assertEquals(SERVICE, s.tag("rpc.service"));
            assertEquals("greet", s.tag("rpc.method"));
            assertEquals("ok", s.tag("status"));
            assertNull(s.error(), "no error on " + s);
        }
        assertEquals("127.0.0.1:" + runtimes.runtimeC.boundPort(), client.tag("server.address"));
        assertNotNull(server.tag("client.address"));
    }

    @Test
    void aCallThroughThreeRuntimesIsOneTrace() throws Exception {
        assertEquals("b -> hello ada from c", runtimes.aToB.hop("ada"));

        List<MutableSpan> spans = spans(4);
        MutableSpan aClient = spans.stream().filter(s -> s.kind() == Kind.CLIENT && s.parentId() == null)
                .findFirst().orElseThrow(() -> new AssertionError("no root consumer span in " + spans));
        MutableSpan bServer = child(spans, aClient, Kind.SERVER);
        MutableSpan bClient = child(spans, bServer, Kind.CLIENT);
        MutableSpan cServer = child(spans, bClient, Kind.SERVER);
        for (MutableSpan s : List.of(bServer, bClient, cServer)) {
            assertEquals(aClient.traceId(), s.traceId(), "one trace: " + s);
        }
        assertTrue(cServer.finishTimestamp() <= aClient.finishTimestamp(), "C ended inside A's call");
    }

    @Test
    void errorsAndTimeoutsMarkTheSpans() throws Exception {
        assertThrows(IllegalStateException.class, () -> runtimes.aToC.fail("boom"));
        for (MutableSpan s : spans(2)) {
            assertNotNull(s.error(), "failed call: " + s);
            assertEquals("service_error", s.tag("status"));
        }
        finished.clear();

        Greeter impatient = Runtimes.refer(runtimes.runtimeA, runtimes.runtimeC, Duration.ofMillis(100));
        assertThrows(RpcTimeoutException.class, () -> impatient.hold("ada"));
        runtimes.c.release(); // only now can the provider answer, after the consumer has given up
        List<MutableSpan> spans = spans(2);
        MutableSpan client = one(spans, Kind.CLIENT, "hold");
        MutableSpan server = one(spans, Kind.SERVER, "hold");
        assertTrue(client.error() instanceof RpcTimeoutException, "timeout on the consumer's span: " + client.error());
        assertEquals("timeout", client.tag("status"));
        assertTrue(client.finishTimestamp() - client.startTimestamp() >= 100_000,
                "the consumer's span (microseconds) lasts at least its 100 ms timeout: " + client);
        assertEquals(client.id(), server.parentId());
    }
}
