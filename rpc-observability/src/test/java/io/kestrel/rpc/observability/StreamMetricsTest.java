package io.kestrel.rpc.observability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.stream.StreamCancelledException;
import io.kestrel.rpc.api.stream.StreamObserver;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.observability.metrics.KestrelMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Stream meters on both sides after real streams over a loopback socket: open streams, messages, duration, outcome. */
class StreamMetricsTest {
    private static final String SERVICE = Ticker.class.getName();
    private static final int N = 700;

    private final SimpleMeterRegistry consumerMeters = new SimpleMeterRegistry();
    private final SimpleMeterRegistry providerMeters = new SimpleMeterRegistry();
    private RpcRuntime provider;
    private RpcRuntime consumer;
    private Ticker ticker;

    @BeforeEach
    void start() {
        provider = KestrelMetrics.of(providerMeters).addTo(RpcRuntime.builder())
                .protocol(Runtimes.loopback().build()).build();
        provider.export(ServiceConfig.builder(Ticker.class, new TickerImpl()).build());
        consumer = KestrelMetrics.of(consumerMeters).addTo(RpcRuntime.builder()).build();
        ticker = consumer.refer(ReferenceConfig.builder(Ticker.class).url("127.0.0.1:" + provider.boundPort())
                .timeout(Duration.ofSeconds(20)).build());
    }

    @AfterEach
    void stop() {
        consumer.close();
        provider.close();
    }

    private static double count(SimpleMeterRegistry meters, String name, String method) {
        Counter c = meters.find(name).tag("rpc.service", SERVICE).tag("rpc.method", method).counter();
        return c == null ? 0 : c.count();
    }

    private static long streams(SimpleMeterRegistry meters, String name, String method, String status) {
        Timer t = meters.find(name).tag("rpc.service", SERVICE).tag("rpc.method", method).tag("status", status).timer();
        return t == null ? 0 : t.count();
    }

    private static double open(SimpleMeterRegistry meters, String name) {
        return meters.get(name).gauge().value();
    }

    @Test
    void aServerStreamOfNMessagesIsCountedAndTimedOnceOnEachSide() throws Exception {
        Received<Integer> out = new Received<>();
        ticker.ticks(N, out);
        assertNull(out.end());
        assertEquals(N, count(consumerMeters, KestrelMetrics.CLIENT_STREAM_RECEIVED, "ticks"));
        assertEquals(0, count(consumerMeters, KestrelMetrics.CLIENT_STREAM_SENT, "ticks"));
        assertEquals(N, count(providerMeters, KestrelMetrics.SERVER_STREAM_SENT, "ticks"));
        assertEquals(1, streams(consumerMeters, KestrelMetrics.CLIENT_DURATION, "ticks", "ok"));
        Runtimes.await("the provider timed the stream",
                () -> streams(providerMeters, KestrelMetrics.SERVER_DURATION, "ticks", "ok") == 1);
        assertEquals(0, open(consumerMeters, KestrelMetrics.CLIENT_STREAMS_OPEN));
        assertEquals(0, open(providerMeters, KestrelMetrics.SERVER_STREAMS_OPEN));
    }

    @Test
    void aBidirectionalStreamCountsBothDirectionsOnBothSides() throws Exception {
        Received<String> out = new Received<>();
        StreamObserver<String> in = ticker.echo(out);
        for (int i = 0; i < N; i++) {
            in.onNext("m" + i);
        }
        in.onCompleted();
        assertNull(out.end());
        assertEquals(N, count(consumerMeters, KestrelMetrics.CLIENT_STREAM_SENT, "echo"));
        assertEquals(N, count(consumerMeters, KestrelMetrics.CLIENT_STREAM_RECEIVED, "echo"));
        assertEquals(N, count(providerMeters, KestrelMetrics.SERVER_STREAM_RECEIVED, "echo"));
        assertEquals(N, count(providerMeters, KestrelMetrics.SERVER_STREAM_SENT, "echo"));
        assertEquals(1, streams(consumerMeters, KestrelMetrics.CLIENT_DURATION, "echo", "ok"));
    }

    @Test
    void openStreamsAreGaugedAndACancelledStreamIsTimedAsCancelled() throws Exception {
        Received<Integer> out = new Received<>();
        ticker.endless(out);
        Runtimes.await("messages arrive", () -> out.count.get() > 50);
        assertEquals(1, open(consumerMeters, KestrelMetrics.CLIENT_STREAMS_OPEN));
        assertEquals(1, open(providerMeters, KestrelMetrics.SERVER_STREAMS_OPEN));
        out.handle.cancel("enough");
        assertInstanceOf(StreamCancelledException.class, out.end());
        assertEquals(1, streams(consumerMeters, KestrelMetrics.CLIENT_DURATION, "endless", "cancelled"));
        Runtimes.await("the provider timed the stream as cancelled",
                () -> streams(providerMeters, KestrelMetrics.SERVER_DURATION, "endless", "cancelled") == 1);
        Runtimes.await("no stream open", () -> open(consumerMeters, KestrelMetrics.CLIENT_STREAMS_OPEN) == 0
                && open(providerMeters, KestrelMetrics.SERVER_STREAMS_OPEN) == 0);
        assertEquals(out.count.get(), count(consumerMeters, KestrelMetrics.CLIENT_STREAM_RECEIVED, "endless"));
    }

    @Test
    void aFailedStreamIsTimedAsAServiceErrorAfterItsMessages() throws Exception {
        Received<Integer> out = new Received<>();
        ticker.failAfter(40, out);
        assertNotNull(out.end());
        assertEquals(1, streams(consumerMeters, KestrelMetrics.CLIENT_DURATION, "failAfter", "service_error"));
        Runtimes.await("the provider timed the stream as failed",
                () -> streams(providerMeters, KestrelMetrics.SERVER_DURATION, "failAfter", "service_error") == 1);
        assertEquals(40, count(consumerMeters, KestrelMetrics.CLIENT_STREAM_RECEIVED, "failAfter"));
        assertEquals(40, count(providerMeters, KestrelMetrics.SERVER_STREAM_SENT, "failAfter"));
    }
}
