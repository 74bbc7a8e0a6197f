package io.kestrel.rpc.observability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ServerLimits;
import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.generic.GenericService;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.observability.metrics.KestrelMetrics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Timers and gauges of two runtimes after real calls over a loopback socket, read from SimpleMeterRegistry. */
class MetricsTest {
    private static final String SERVICE = Greeter.class.getName();

    private final SimpleMeterRegistry consumerMeters = new SimpleMeterRegistry();
    private final SimpleMeterRegistry providerMeters = new SimpleMeterRegistry();
    private final GreeterImpl impl = new GreeterImpl("p");
    private final ExecutorService callers = Executors.newFixedThreadPool(2);
    private RpcRuntime provider;
    private RpcRuntime consumer;
    private Greeter greeter;

    @BeforeEach
    void start() {
        KestrelMetrics providerMetrics = KestrelMetrics.of(providerMeters);
        // one business thread and a queue: a held call occupies the pool, the next one waits in the queue
        provider = Runtimes.provider(providerMetrics.addTo(RpcRuntime.builder()),
                Runtimes.loopback().threads(1).queueCapacity(10)
                        .limits(ServerLimits.builder().callsPerConnection(10).build()).build(), impl);
        providerMetrics.bindTo(provider);
        KestrelMetrics consumerMetrics = KestrelMetrics.builder(consumerMeters).percentiles(0.5, 0.99).build();
        consumer = consumerMetrics.addTo(RpcRuntime.builder()).build();
        consumerMetrics.bindTo(consumer);
        greeter = Runtimes.refer(consumer, provider, Duration.ofSeconds(5));
    }

    @AfterEach
    void stop() {
        impl.release();
        callers.shutdownNow();
        consumer.close();
        provider.close();
    }

    private Timer timer(SimpleMeterRegistry meters, String name, String method, String status) {
        return meters.find(name).tag("rpc.system", "kestrel").tag("rpc.service", SERVICE).tag("rpc.method", method)
                .tag("status", status).tag("serialization", "fory").timer();
    }

    @Test
    void genericCallsAreTimedUnderTheMethodTheyCallNotTheReservedOneTheyTravelAs() {
        GenericService generic = consumer.refer(ReferenceConfig.generic(SERVICE)
                .url("127.0.0.1:" + provider.boundPort()).timeout(Duration.ofSeconds(5)).retries(0).build());
        for (int i = 0; i < 3; i++) {
            assertEquals("hello ada from p", generic.$invoke("greet", new String[] {"java.lang.String"},
                    new Object[] {"ada"}));
        }
        assertThrows(RuntimeException.class,
                () -> generic.$invoke("fail", new String[] {"java.lang.String"}, new Object[] {"no"}));

        assertEquals(3, timer(consumerMeters, KestrelMetrics.CLIENT_DURATION, "greet", "ok").count(),
                consumerMeters.getMetersAsString());
        assertEquals(1, timer(consumerMeters, KestrelMetrics.CLIENT_DURATION, "fail", "service_error").count());
        assertNull(consumerMeters.find(KestrelMetrics.CLIENT_DURATION).tag("rpc.method", "$invoke").timer(),
                "no timer under the reserved name: " + consumerMeters.getMetersAsString());
        assertEquals(3, timer(providerMeters, KestrelMetrics.SERVER_DURATION, "greet", "ok").count());
    }

    private double gauge(SimpleMeterRegistry meters, String name) {
        Gauge g = meters.find(name).gauge();
        assertNotNull(g, "gauge " + name + " registered");
        return g.value();
    }

    @Test
    void timersCountCallsByServiceMethodStatusAndSerializationOnBothSides() throws Exception {
        for (int i = 0; i < 5; i++) {
            greeter.greet("ada");
        }
        for (int i = 0; i < 2; i++) {
            assertThrows(IllegalStateException.class, () -> greeter.fail("no")); // the service's own exception
        }
        Greeter impatient = Runtimes.refer(consumer, provider, Duration.ofMillis(100));
        assertThrows(RpcTimeoutException.class, () -> impatient.slow(400));
        assertEquals("hello bob from p", greeter.greetAsync("bob").get(5, TimeUnit.SECONDS));

        Timer clientOk = timer(consumerMeters, KestrelMetrics.CLIENT_DURATION, "greet", "ok");
        assertNotNull(clientOk, "rpc.client.duration for greet/ok: " + consumerMeters.getMetersAsString());
        assertEquals(5, clientOk.count());
        assertTrue(clientOk.totalTime(TimeUnit.NANOSECONDS) > 0);
        assertTrue(clientOk.max(TimeUnit.MILLISECONDS) < 5000);
        ValueAtPercentile[] percentiles = clientOk.takeSnapshot().percentileValues();
        assertEquals(2, percentiles.length, "the asked-for percentiles 0.5 and 0.99 are published");
        assertEquals(2, timer(consumerMeters, KestrelMetrics.CLIENT_DURATION, "fail", "service_error").count());
        Timer timedOut = timer(consumerMeters, KestrelMetrics.CLIENT_DURATION, "slow", "timeout");
        assertEquals(1, timedOut.count());
        assertTrue(timedOut.totalTime(TimeUnit.MILLISECONDS) >= 100, "a timed-out call lasted its 100 ms limit");
        assertEquals(1, timer(consumerMeters, KestrelMetrics.CLIENT_DURATION, "greetAsync", "ok").count());
        assertNull(consumerMeters.find(KestrelMetrics.SERVER_DURATION).timer(), "the consumer served nothing");

        assertEquals(5, timer(providerMeters, KestrelMetrics.SERVER_DURATION, "greet", "ok").count());
        assertEquals(2, timer(providerMeters, KestrelMetrics.SERVER_DURATION, "fail", "service_error").count());
        Runtimes.await("the provider finishes the slow call its caller gave up on",
                () -> timer(providerMeters, KestrelMetrics.SERVER_DURATION, "slow", "ok") != null);
        Timer slow = timer(providerMeters, KestrelMetrics.SERVER_DURATION, "slow", "ok");
        assertTrue(slow.totalTime(TimeUnit.MILLISECONDS) >= 400, "the provider timed the 400 ms of work");
        assertNull(providerMeters.find(KestrelMetrics.CLIENT_DURATION).timer(), "the provider called nothing");
    }

    @Test
    void gaugesShowCallsInFlightPendingPerConnectionAndThePoolWhileCallsAreHeld() throws Exception {
        greeter.greet("warm-up");
        String address = "127.0.0.1:" + provider.boundPort();
        List<CompletableFuture<String>> held = new ArrayList<>();
        held.add(CompletableFuture.supplyAsync(() -> greeter.hold("one"), callers));
        held.add(CompletableFuture.supplyAsync(() -> greeter.hold("two"), callers));
        Runtimes.await("one call running and one queued on the provider",
                () -> gauge(providerMeters, KestrelMetrics.SERVER_POOL_ACTIVE) == 1
                        && gauge(providerMeters, KestrelMetrics.SERVER_POOL_QUEUED) == 1);
        assertEquals(2, gauge(providerMeters, KestrelMetrics.SERVER_CALLS_ACTIVE));
        assertEquals(2, gauge(consumerMeters, KestrelMetrics.CLIENT_CALLS_PENDING));
        Gauge perConnection = consumerMeters.find(KestrelMetrics.CLIENT_CONNECTION_PENDING)
                .tag("server.address", address).gauge();
        assertNotNull(perConnection, "pending-calls gauge of the connection to " + address);
        assertEquals(2, perConnection.value());
        assertEquals(1, gauge(consumerMeters, KestrelMetrics.CLIENT_CONNECTIONS));
        assertEquals(0, gauge(consumerMeters, KestrelMetrics.CLIENT_PROVIDERS_EJECTED), "no provider is ejected");
        assertEquals(1, gauge(providerMeters, KestrelMetrics.SERVER_CONNECTIONS));

        impl.release();
        for (CompletableFuture<String> f : held) {
            assertTrue(f.get(10, TimeUnit.SECONDS).startsWith("held "));
        }
        Runtimes.await("nothing in flight any more", () -> gauge(providerMeters, KestrelMetrics.SERVER_CALLS_ACTIVE) == 0
                && gauge(consumerMeters, KestrelMetrics.CLIENT_CALLS_PENDING) == 0 && perConnection.value() == 0);
        assertEquals(0, gauge(providerMeters, KestrelMetrics.SERVER_POOL_QUEUED));
    }

    @Test
    void byteCountersAgreeWithTheRuntimesWireCounters() {
        for (int i = 0; i < 20; i++) {
            greeter.greet("x".repeat(100));
        }
        double sent = counter(consumerMeters, KestrelMetrics.CLIENT_SENT);
        double received = counter(providerMeters, KestrelMetrics.SERVER_RECEIVED);
        assertTrue(sent > 20 * 100, "20 calls of 100+ bytes were sent, counter says " + sent);
        assertEquals(consumer.inspect().snapshot().client().wire().bytesWritten(), sent);
        assertEquals(provider.inspect().snapshot().server().wire().bytesRead(), received);
        assertTrue(counter(providerMeters, KestrelMetrics.SERVER_SENT) > 0);
        assertEquals(consumer.inspect().snapshot().client().wire().bytesRead(), counter(consumerMeters, KestrelMetrics.CLIENT_RECEIVED));
        assertNull(consumerMeters.find(KestrelMetrics.REGISTRY_CONNECTED).gauge(), "no registry, no registry gauge");
    }

    private static double counter(SimpleMeterRegistry meters, String name) {
        FunctionCounter c = meters.find(name).functionCounter();
        assertNotNull(c, "counter " + name + " registered");
        return c.count();
    }
}
