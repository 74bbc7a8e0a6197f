package io.kestrel.rpc.core.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.TestRuntimes;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.core.ConnectionView;
import io.kestrel.rpc.testing.Await;
import java.util.function.IntSupplier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * A provider whose process is frozen (SIGSTOP) stops answering without closing its sockets: only
 * heartbeats can tell. One provider runs in a child JVM, the other in this one; the consumer knows
 * both through a direct url and uses a 200 ms heartbeat with 3 misses (a 600 ms window).
 */
@EnabledOnOs({OS.LINUX, OS.MAC})
class FrozenProviderTest {
    static final Duration HEARTBEAT = Duration.ofMillis(200);
    static final int MISSES = 3;
    static final Duration CALL_TIMEOUT = Duration.ofSeconds(3);

    ChildJvm child;
    RpcRuntime local;
    RpcRuntime consumer;

    @AfterEach
    void stop() {
        if (consumer != null) {
            consumer.close();
        }
        if (local != null) {
            local.close();
        }
        if (child != null) {
            child.close(); // CONT, then TERM, then KILL
        }
    }

    @Test
    void frozenProviderIsDetectedItsCallsFailNewCallsGoElsewhereAndItIsReconnectedAfterThaw() throws Exception {
        child = ChildJvm.start("frozen-provider", EchoProviderMain.class, "kryo");
        int frozenPort = Integer.parseInt(child.awaitLine("READY port=(\\d+)", 30_000).group(1));
        local = TestRuntimes.echoProvider(TestRuntimes.loopback().build());
        consumer = RpcRuntime.builder().build();
        EchoService echo = consumer.refer(ReferenceConfig.builder(EchoService.class)
                .url("127.0.0.1:" + frozenPort + ",127.0.0.1:" + local.boundPort()).serialization("kryo")
                .loadBalance("roundrobin").timeout(CALL_TIMEOUT).heartbeatInterval(HEARTBEAT).heartbeatMisses(MISSES)
                .build());
        String frozenAddress = "127.0.0.1:" + frozenPort;
        assertTrue(consumer.inspect().connection(frozenAddress).isPresent(), "no connection to the child provider");
        BooleanSupplier frozenReady = () -> consumer.inspect().connection(frozenAddress).map(ConnectionView::ready).orElse(false);
        IntSupplier pendingOnFrozenNow = () -> consumer.inspect().connection(frozenAddress).map(ConnectionView::pendingCalls).orElse(0);
        // connected at refer; ready once the handshake is answered, which a cold child JVM on a loaded machine may
        // take a moment to do
        Await.until("the reference's connection to the child provider becomes ready", Duration.ofSeconds(15), frozenReady);
        // warm up both (a cold JVM on a loaded machine may miss the 600 ms heartbeat window on its first
        // calls): until 20 calls in a row succeed, bounded
        int streak = 0;
        long warmDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (int i = 0; streak < 20 && System.nanoTime() < warmDeadline; i++) {
            try {
                assertEquals("warm-" + i, echo.echo("warm-" + i));
                streak++;
            } catch (io.kestrel.rpc.api.RpcException e) {
                streak = 0;
                Await.until("the child provider is ready again", Duration.ofSeconds(10), frozenReady);
            }
        }
        assertEquals(20, streak, "the providers never answered 20 calls in a row");
        long servedByLocal = local.inspect().snapshot().server().wire().framesRead();
        assertTrue(servedByLocal > 0, "round robin never reached the in-process provider");

        // freeze the child, then send calls: round robin routes about half of them to it
        child.signal("STOP");
        long frozenAt = System.nanoTime();
        List<CompletableFuture<String>> inFlight = new ArrayList<>();
        List<Long> doneAtMs = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int i = 0; i < 8; i++) {
            CompletableFuture<String> f = echo.echoAsync("in-flight-" + i);
            f.whenComplete((v, e) -> doneAtMs.add(elapsedMs(frozenAt)));
            inFlight.add(f);
        }
        int pendingOnFrozen = pendingOnFrozenNow.getAsInt();
        assertTrue(pendingOnFrozen > 0, "no call went to the frozen provider");

        Await.until("the frozen provider was never detected", Duration.ofMillis(10_000), () -> !frozenReady.getAsBoolean());
        long detectedMs = elapsedMs(frozenAt);
        long windowMs = HEARTBEAT.toMillis() * MISSES;

        // every in-flight call ends, those on the frozen provider with an error, none later than its timeout
        Await.until("calls still pending " + (CALL_TIMEOUT.toMillis() + 2000) + " ms after the freeze", Duration.ofMillis(CALL_TIMEOUT.toMillis() + 2000), () -> inFlight.stream().allMatch(CompletableFuture::isDone));
        long failed = inFlight.stream().filter(CompletableFuture::isCompletedExceptionally).count();
        long failedByHeartbeat = inFlight.stream().filter(CompletableFuture::isCompletedExceptionally)
                .map(f -> f.handle((v, e) -> e instanceof java.util.concurrent.CompletionException ? e.getCause() : e).join())
                .filter(e -> e instanceof io.kestrel.rpc.api.TransportException
                        && !(e instanceof io.kestrel.rpc.api.RpcTimeoutException)
                        && e.getMessage().contains("heartbeat timeout"))
                .count();
        long slowest = doneAtMs.stream().mapToLong(Long::longValue).max().orElse(0);
        String firstError = inFlight.stream().filter(CompletableFuture::isCompletedExceptionally).findFirst()
                .map(f -> f.handle((v, e) -> String.valueOf(e)).join()).orElse("none");
        assertEquals(0, pendingOnFrozenNow.getAsInt(), "the frozen provider's connection still has pending calls");

        // new calls go to the live provider; spread over more than one heartbeat window, so a connection
        // to the frozen process that the kernel accepts again (its listen socket still works) is exercised
        int ok = 0;
        List<String> failures = new ArrayList<>();
        long afterStart = System.nanoTime();
        for (int i = 0; i < 40; i++) {
            try {
                if (("after-" + i).equals(echo.echo("after-" + i))) {
                    ok++;
                }
            } catch (RuntimeException e) {
                failures.add(elapsedMs(frozenAt) + " ms: " + e);
            }
            TimeUnit.MILLISECONDS.sleep(50); // pacing the calls over ~2 s, not waiting for a result
        }
        long afterMs = elapsedMs(afterStart);

        child.signal("CONT");
        long thawedAt = System.nanoTime();
        Await.until("not reconnected within 15 s after the thaw", Duration.ofMillis(15_000), frozenReady);
        long reconnectMs = elapsedMs(thawedAt);
        long servedBefore = local.inspect().snapshot().server().wire().framesRead();
        int okAfterThaw = 0;
        for (int i = 0; i < 20; i++) {
            if (("thawed-" + i).equals(echo.echo("thawed-" + i))) {
                okAfterThaw++;
            }
        }
        long framesToLocal = local.inspect().snapshot().server().wire().framesRead() - servedBefore;

        System.out.printf("frozen provider: detected %d ms after SIGSTOP (heartbeat %d ms x %d = %d ms window);"
                        + " %d in-flight calls (%d on the frozen provider), %d failed, all ended within %d ms (first"
                        + " error: %s); then %d of 40 calls over %d ms succeeded (failures: %s); reconnected %d ms after"
                        + " SIGCONT; %d of 20 calls after that succeeded, %d frames of them reached the local provider%n",
                detectedMs, HEARTBEAT.toMillis(), MISSES, windowMs, inFlight.size(), pendingOnFrozen, failed, slowest,
                firstError, ok, afterMs, failures, reconnectMs, okAfterThaw, framesToLocal);

        // detection is proven by what ended the calls, not by a clock: the calls on the frozen provider
        // failed because its heartbeats stopped, before their own deadline could fail them
        assertTrue(failed >= 1, "the calls on the frozen provider should have failed");
        assertTrue(failedByHeartbeat == failed, failed + " calls failed, " + failedByHeartbeat
                + " of them because the heartbeats stopped; first error: " + firstError);
        assertEquals(40, ok, "calls after the detection must go to the live provider: " + failures);
        assertEquals(20, okAfterThaw);
        assertTrue(framesToLocal < 20, "after the thaw round robin should use both providers again");
    }

    static long elapsedMs(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }
}
