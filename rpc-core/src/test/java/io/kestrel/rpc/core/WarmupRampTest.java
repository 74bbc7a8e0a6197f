package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.core.fixture.NamedWho;
import io.kestrel.rpc.core.fixture.WhoService;
import io.kestrel.rpc.testing.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Warm-up with real providers through a real ZooKeeper, counted on the providers: a warming provider gets
 * the share its ramped weight gives it (weight x uptime / warmup against a warm provider's full weight), and
 * once its warm-up is over, its full share. The uptime is the provider process's (this JVM's), read back
 * from the published start time, so the test chooses the warm-up from it. Bounds: the expected count for the
 * weights at the first and at the last call, widened by 6 standard deviations of the binomial count (a
 * false failure has odds below one in 10^8), while the two ways warm-up goes wrong (not applied: half the
 * calls; applied as weight 1: about 1%) land far outside.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WarmupRampTest {
    private static final int CALLS = 2000;
    private TestingServer zk;
    private final List<RpcRuntime> runtimes = new ArrayList<>();

    @BeforeEach
    void startZooKeeper() throws Exception {
        zk = new TestingServer(true);
    }

    @AfterEach
    void stopAll() throws Exception {
        for (int i = runtimes.size() - 1; i >= 0; i--) {
            runtimes.get(i).close();
        }
        zk.close();
    }

    private RegistryConfig registry() {
        return RegistryConfig.builder().address("zookeeper://" + zk.getConnectString()).build();
    }

    private RpcRuntime provider(NamedWho impl, Duration warmup) {
        RpcRuntime r = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).registry(registry()).build();
        runtimes.add(r);
        ServiceConfig.Builder<WhoService> service = ServiceConfig.builder(WhoService.class, impl).weight(100);
        if (warmup != null) {
            service.warmup(warmup);
        }
        r.export(service.build());
        return r;
    }

    @Test
    void aWarmingProviderGetsItsRampedShareAndAWarmOneItsFullShare() throws Exception {
        NamedWho warm = new NamedWho("warm");
        NamedWho warming = new NamedWho("warming");
        provider(warm, null);
        RpcRuntime consumer = RpcRuntime.builder().registry(registry()).build();
        runtimes.add(consumer);
        WhoService who = consumer.refer(ReferenceConfig.builder(WhoService.class).loadBalance("random")
                .timeout(Duration.ofSeconds(30)).retries(0).build()); // generous: counts matter, not latency

        // the published start time is this JVM's; a warm-up of 5 x its uptime puts the provider at about 20%
        long start = Long.parseLong(publishedStart());
        long uptime = System.currentTimeMillis() - start;
        Duration warmup = Duration.ofMillis(Math.max(5 * uptime, 20_000));
        RpcRuntime warmingRuntime = provider(warming, warmup);
        Await.until("both providers known", () -> consumer.inspect().references().get(0).providers().size() == 2);

        int warmBefore = warm.whoCalls.get();
        int warmingBefore = warming.whoCalls.get();
        long first = System.currentTimeMillis();
        call(who);
        long last = System.currentTimeMillis();
        int onWarming = warming.whoCalls.get() - warmingBefore;
        assertEquals(CALLS, onWarming + warm.whoCalls.get() - warmBefore);

        double low = CALLS * share(ramped(first - start, warmup.toMillis()));
        double high = CALLS * share(ramped(last - start, warmup.toMillis()));
        double margin = 6 * Math.sqrt(CALLS * 0.25);
        assertTrue(onWarming >= low - margin && onWarming <= high + margin, "warming provider got " + onWarming
                + " of " + CALLS + " calls; expected " + Math.round(low) + ".." + Math.round(high) + " +- "
                + Math.round(margin) + " (uptime " + (first - start) + " ms of a " + warmup.toMillis() + " ms warm-up)");
        System.out.printf("warm-up ramp: %d of %d calls on the warming provider (expected %d..%d +- %d, uptime %d ms,"
                + " warm-up %d ms, %d ms for the calls)%n", onWarming, CALLS, Math.round(low), Math.round(high),
                Math.round(margin), first - start, warmup.toMillis(), last - first);
        ReferenceView.Provider seen = consumer.inspect().references().get(0).providers().stream()
                .filter(p -> p.effectiveWeight() < 100).findFirst().orElseThrow();
        assertEquals(100, seen.weight(), "the published weight is unchanged");

        // the same provider with its warm-up over: full weight, half of the calls
        warmingRuntime.close();
        provider(warming, Duration.ofMillis(Math.max(1, uptime / 2)));
        Await.until("the re-exported provider known", () -> consumer.inspect().references().get(0).providers().size() == 2
                && consumer.inspect().references().get(0).providers().stream().allMatch(p -> p.effectiveWeight() == 100));
        int warmingAgain = warming.whoCalls.get();
        call(who);
        int now = warming.whoCalls.get() - warmingAgain;
        System.out.printf("warm provider: %d of %d calls%n", now, CALLS);
        assertTrue(Math.abs(now - CALLS / 2.0) <= margin, "warm provider got " + now + " of " + CALLS);
    }

    /** {@value #CALLS} calls from 4 threads. */
    private static void call(WhoService who) throws Exception {
        ExecutorService callers = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                done.add(callers.submit(() -> {
                    for (int i = 0; i < CALLS / 4; i++) {
                        who.who();
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            callers.shutdownNow();
        }
    }

    private String publishedStart() throws InterruptedException {
        RpcRuntime probe = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).build();
        try {
            Exporter e = probe.export(ServiceConfig.builder(WhoService.class, new NamedWho("probe"))
                    .warmup(Duration.ofSeconds(1)).build());
            return e.provider().attribute(ProviderInfo.START_TIME).orElseThrow();
        } finally {
            probe.close();
        }
    }

    /** Dubbo's formula, as the test's own statement of what the consumer must do. */
    private static int ramped(long uptime, long warmup) {
        return uptime >= warmup ? 100 : (int) Math.max(1, 100 * uptime / warmup);
    }

    /** The share of the warming provider against a warm one of weight 100. */
    private static double share(int weight) {
        return weight / (100.0 + weight);
    }
}
