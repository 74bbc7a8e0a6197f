package io.kestrel.rpc.core.reliability;

import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.api.registry.Registries;
import io.kestrel.rpc.api.registry.Registry;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.testing.Await;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetric;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The consumer JVM of {@code HostileProviderTest}: a real {@link RpcRuntime} with lowered consumer limits
 * (set by the test on this JVM's command line), calling the test's hostile providers and its healthy one.
 * Prints one {@code CHECK <name> PASS|FAIL <detail>} line per scenario, then {@code DONE}.
 *
 * <p>Arguments: zookeeper connect string, then the ports of the healthy provider, two trickling providers,
 * the huge-error one, the deep-error one, the java-preferring one, the silent one, and of three speaking the
 * dubbo protocol: two trickling, one sending an oversized answer.
 */
public final class HostileProviderConsumerMain {
    private final RpcRuntime runtime;
    private final EchoService healthy;
    private final String zk;

    private HostileProviderConsumerMain(String zk, int healthyPort) {
        this.zk = zk;
        this.runtime = RpcRuntime.builder().registry(registry()).build();
        this.healthy = runtime.refer(direct(healthyPort).build());
    }

    private RegistryConfig registry() {
        return RegistryConfig.builder().address("zookeeper://" + zk).build();
    }

    public static void main(String[] args) throws Exception {
        Thread watchdog = new Thread(() -> { // the test holds our stdin: when it goes, so do we
            try {
                while (System.in.read() >= 0) {
                    // ignore input
                }
            } catch (Exception ignored) {
                // exit below
            }
            System.exit(3);
        });
        watchdog.setDaemon(true);
        watchdog.start();
        int[] p = new int[args.length - 1];
        for (int i = 1; i < args.length; i++) {
            p[i - 1] = Integer.parseInt(args[i]);
        }
        HostileProviderConsumerMain main = new HostileProviderConsumerMain(args[0], p[0]);
        main.check("healthy", main::healthyAnswers);
        main.check("trickle", () -> main.trickle(direct(p[1]), direct(p[2])));
        main.check("dubbo-trickle", () -> main.trickle(dubbo(p[7]), dubbo(p[8])));
        main.check("dubbo-oversized", () -> main.oversized(dubbo(p[9])));
        main.check("huge-error", () -> main.hugeError(p[3]));
        main.check("deep-error", () -> main.deepError(p[4]));
        main.check("java-refused", () -> main.javaRefused(p[5]));
        main.check("java-opt-in", () -> main.javaOptIn(p[5]));
        main.check("timeout-clamped", () -> main.timeoutClamped(p[6]));
        main.check("provider-cap", main::providerCap);
        System.out.println("DONE");
        System.out.flush();
        System.exit(0);
    }

    private interface Check {
        String run() throws Exception;
    }

    private void check(String name, Check check) {
        String line;
        long start = System.nanoTime();
        try {
            line = "PASS " + check.run();
        } catch (Throwable t) {
            line = "FAIL " + t;
        }
        System.out.println("CHECK " + name + " " + line.replace('\n', ' ') + " [" + elapsedMillis(start) + " ms]");
        System.out.flush();
    }

    private static ReferenceConfig.Builder<EchoService> direct(int port) {
        return ReferenceConfig.builder(EchoService.class).url("127.0.0.1:" + port).retries(0)
                .timeout(Duration.ofSeconds(20));
    }

    /** A reference speaking the dubbo protocol to the provider on {@code port}. */
    private static ReferenceConfig.Builder<EchoService> dubbo(int port) {
        return ReferenceConfig.builder(EchoService.class).url("dubbo://127.0.0.1:" + port).retries(0)
                .timeout(Duration.ofSeconds(20));
    }

    private static void require(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }

    /** What {@code call} failed with, waiting at most {@code seconds}. */
    private static Throwable failure(CompletableFuture<?> call, long seconds) throws Exception {
        try {
            Object value = call.get(seconds, TimeUnit.SECONDS);
            throw new AssertionError("the call succeeded with " + value);
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    private static Throwable failure(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            return e;
        }
        throw new AssertionError("the call succeeded");
    }

    private String healthyAnswers() {
        for (int i = 0; i < 20; i++) {
            require(("h" + i).equals(healthy.echo("h" + i)), "the healthy provider answered wrongly");
        }
        return "20 calls answered";
    }

    /** Bytes Netty's default allocator (the one the connections use) holds now. */
    private static long nettyBytes() {
        ByteBufAllocatorMetric metric = ((ByteBufAllocatorMetricProvider) ByteBufAllocator.DEFAULT).metric();
        return metric.usedDirectMemory() + metric.usedHeapMemory();
    }

    /** The providers the "cap" reference knows now. */
    private List<io.kestrel.rpc.core.ReferenceView.Provider> capView() {
        return runtime.inspect().references().stream().filter(r -> r.service().startsWith("cap/"))
                .findFirst().map(io.kestrel.rpc.core.ReferenceView::providers).orElse(List.of());
    }

    private static long elapsedMillis(long since) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
    }

    /**
     * Two providers announce 8 MB answers and trickle them. The first fits the memory budget for frames
     * still arriving (half of 24 MiB) and is cut by the frame timeout; the second does not fit and fails at
     * once. The healthy provider keeps answering meanwhile.
     */
    private String trickle(ReferenceConfig.Builder<EchoService> first, ReferenceConfig.Builder<EchoService> second)
            throws Exception {
        EchoService a = runtime.refer(first.build());
        EchoService b = runtime.refer(second.build());
        long start = System.nanoTime();
        CompletableFuture<String> callA = CompletableFuture.supplyAsync(() -> a.echo("a"));
        long before = nettyBytes();
        // a's header first, so a holds the budget: its body (4 MB, sent right after the header) is arriving
        Await.until("the first trickled answer arriving", Duration.ofSeconds(10), () -> nettyBytes() >= before + (2 << 20));
        CompletableFuture<String> callB = CompletableFuture.supplyAsync(() -> b.echo("b"));
        Throwable refused = failure(callB, 10);
        long refusedAfter = elapsedMillis(start);
        require(refused.getMessage().contains("does not fit this consumer's memory budget"),
                "the second 8 MB answer was not refused for the memory budget: " + refused);
        int healthyCalls = 0;
        long peakDirect = 0;
        while (!callA.isDone() && elapsedMillis(start) < 15_000) {
            require("ok".equals(healthy.echo("ok")), "the healthy provider answered wrongly");
            healthyCalls++;
            peakDirect = Math.max(peakDirect, nettyBytes());
            Thread.sleep(20); // the pace of the healthy calls made while the attack runs, not a wait for it
        }
        Throwable cut = failure(callA, 10);
        long cutAfter = elapsedMillis(start);
        require(cut.getMessage().contains("still incomplete") && cut.getMessage().contains("frame timeout 1500 ms"),
                "the trickled answer did not fail for the frame timeout: " + cut);
        require(cutAfter >= 1500 && cutAfter < 10_000, "the frame timeout cut after " + cutAfter + " ms");
        require(healthyCalls >= 10, "only " + healthyCalls + " healthy calls during the trickle");
        require(peakDirect < 48L << 20, "Netty's allocator held " + peakDirect + " bytes");
        return "budget refusal after " + refusedAfter + " ms (" + refused.getClass().getSimpleName() + "), frame"
                + " timeout after " + cutAfter + " ms: " + cut.getMessage() + "; " + healthyCalls
                + " healthy calls meanwhile, Netty allocator peak " + (peakDirect >> 20) + " MiB";
    }

    /**
     * A provider sends a 64 MiB answer as fast as it can: refused from its header (over the payload limit), its
     * bytes skipped as they arrive, never buffered; the healthy provider keeps answering.
     */
    private String oversized(ReferenceConfig.Builder<EchoService> reference) throws Exception {
        EchoService e = runtime.refer(reference.build());
        long start = System.nanoTime();
        CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> e.echo("x"));
        long peak = 0;
        int healthyCalls = 0;
        while (!call.isDone() && elapsedMillis(start) < 15_000) {
            require("ok".equals(healthy.echo("ok")), "the healthy provider answered wrongly");
            healthyCalls++;
            peak = Math.max(peak, nettyBytes());
            Thread.sleep(5); // the pace of the healthy calls made while the attack runs, not a wait for it
        }
        Throwable t = failure(call, 10);
        require(t.getMessage().contains("over this consumer's payload limit"), "not refused for its size: " + t);
        require(peak < 32L << 20, "Netty's allocator held " + peak + " bytes");
        healthyAnswers();
        return t.getClass().getSimpleName() + " after " + elapsedMillis(start) + " ms: " + t.getMessage() + "; "
                + healthyCalls + " healthy calls meanwhile, Netty allocator peak " + (peak >> 20) + " MiB";
    }

    /** A 4 MB error message arrives cut. */
    private String hugeError(int port) {
        EchoService e = runtime.refer(direct(port).build());
        Throwable t = failure(() -> e.echo("x"));
        require(t instanceof IllegalStateException, "not the provider's IllegalStateException: " + t);
        require(t.getMessage().length() < 17_000 && t.getMessage().contains("(4194304 bytes, cut at 16384)"),
                "the message was not cut: " + t.getMessage().length() + " chars");
        healthyAnswers();
        return t.getClass().getName() + ", message of " + t.getMessage().length() + " chars ending '"
                + t.getMessage().substring(t.getMessage().length() - 40) + "'";
    }

    /** A serialized exception nested far deeper than the decode limits is not decoded; its name and message are. */
    private String deepError(int port) {
        EchoService e = runtime.refer(direct(port).build());
        long start = System.nanoTime();
        Throwable t = failure(() -> e.echo("x"));
        long after = elapsedMillis(start);
        require(t instanceof IllegalStateException && "deep".equals(t.getMessage()),
                "not the provider's IllegalStateException(\"deep\"): " + t);
        int depth = 0;
        for (Throwable c = t; c != null && depth < 10_000; c = c.getCause()) {
            depth++;
        }
        require(depth <= 64, "a cause chain of " + depth + " was decoded, past the depth limit");
        healthyAnswers();
        return t + " after " + after + " ms, cause chain depth " + depth;
    }

    /** A provider that prefers java does not make this reference adopt it. */
    private String javaRefused(int port) {
        EchoService e = runtime.refer(direct(port).check(false).build());
        Throwable t = failure(() -> e.echo("x"));
        require(t.getMessage().contains("prefers serialization java")
                && t.getMessage().contains("cannot bound its decoding work"), "not refused for java: " + t);
        healthyAnswers();
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }

    /** A reference that sets java itself uses it. */
    private String javaOptIn(int port) {
        EchoService e = runtime.refer(direct(port).serialization("java").build());
        require(e.echo("x") == null, "the null answer was not read");
        return "a reference with serialization=java called it";
    }

    /** A record publishing a 24-day timeout: a silent provider's call ends after the cap (1500 ms). */
    private String timeoutClamped(int silentPort) throws Exception {
        try (Registry writer = Registries.create(registry())) {
            byte fory = Serializations.installed().byName("fory").id();
            writer.register(new ProviderInfo("127.0.0.1", silentPort, new ServiceKey(EchoService.class.getName(),
                    "", "clamp"), List.of(fory), 100, List.of("echo"), Duration.ofDays(24)));
            EchoService e = runtime.refer(ReferenceConfig.builder(EchoService.class).group("clamp").retries(0).build());
            long start = System.nanoTime();
            Throwable t = failure(() -> e.echo("x"));
            long after = elapsedMillis(start);
            require(t instanceof RpcTimeoutException && t.getMessage().contains("(limit 1500 ms)"),
                    "not a timeout at the cap: " + t);
            require(after < 10_000, "the call took " + after + " ms");
            healthyAnswers();
            return "timed out after " + after + " ms: " + t.getMessage();
        }
    }

    /** Records flooding a service past the cap (3) do not push out the provider in use. */
    private String providerCap() throws Exception {
        EchoService e = runtime.refer(ReferenceConfig.builder(EchoService.class).group("cap").retries(0).build());
        require("c".equals(e.echo("c")), "the registered provider did not answer");
        try (Registry writer = Registries.create(registry())) {
            byte fory = Serializations.installed().byName("fory").id();
            List<ProviderInfo> flood = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                ProviderInfo bogus = new ProviderInfo("127.0.0.1", 1 + i, new ServiceKey(EchoService.class.getName(),
                        "", "cap"), List.of(fory), 100, List.of("echo"));
                writer.register(bogus);
                flood.add(bogus);
            }
            // the registry's notice has reached the reference (capped at 3 providers), then a moment of connection
            // attempts to the bogus records while the calls below run
            Await.until("the reference noticed the bogus records", Duration.ofSeconds(10), () -> capView().size() == 3);
            for (int i = 0; i < 20; i++) {
                require(("c" + i).equals(e.echo("c" + i)), "the provider in use stopped answering");
            }
            return "20 calls answered after " + flood.size() + " bogus records";
        }
    }
}
