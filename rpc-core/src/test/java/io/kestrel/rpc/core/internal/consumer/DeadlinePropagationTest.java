package io.kestrel.rpc.core.internal.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.RpcContext;
import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.TestRuntimes;
import io.kestrel.rpc.core.fixture.HopService;
import io.kestrel.rpc.core.fixture.HopServiceImpl;
import io.kestrel.rpc.testing.Await;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A -> B -> C, three runtimes in one JVM over real loopback sockets. A calls B with a short timeout;
 * B calls C with a long one. C must never get more time than what is left of A's deadline, whether
 * B calls from the serving thread or hands the work to another thread through RpcContext.wrap.
 */
class DeadlinePropagationTest {
    /** Transit and rounding between the hops (C's deadline is counted from when its request arrived). */
    static final long SLACK_MS = 25;

    final HopServiceImpl b = new HopServiceImpl();
    final HopServiceImpl c = new HopServiceImpl();
    RpcRuntime runtimeA;
    RpcRuntime runtimeB;
    RpcRuntime runtimeC;
    HopService bFromA;

    @BeforeEach
    void start() {
        runtimeC = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).build();
        runtimeC.export(ServiceConfig.builder(HopService.class, c).build());
        runtimeB = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).build();
        runtimeB.export(ServiceConfig.builder(HopService.class, b).build());
        b.next = runtimeB.refer(ReferenceConfig.builder(HopService.class).url("127.0.0.1:" + runtimeC.boundPort())
                .timeout(Duration.ofSeconds(10)).build());
        runtimeA = RpcRuntime.builder().build();
        bFromA = runtimeA.refer(ReferenceConfig.builder(HopService.class).url("127.0.0.1:" + runtimeB.boundPort())
                .timeout(Duration.ofMillis(600)).build());
        // first calls set up serializers on every hop (slow on a cold, shared machine): through a reference with a
        // generous timeout, since A's timer starts after that work and the test's clock before it
        HopService warmUp = runtimeA.refer(ReferenceConfig.builder(HopService.class)
                .url("127.0.0.1:" + runtimeB.boundPort()).timeout(Duration.ofSeconds(20)).build());
        warmUp.forwardRemaining(0);
        warmUp.forwardRemainingAsync(0, true).join();
        bFromA.remaining();
        c.deadlinesSeen.clear();
        c.invocations.set(0);
        b.invocations.set(0);
    }

    @AfterEach
    void stop() {
        runtimeA.close();
        runtimeB.close();
        runtimeC.close();
        b.close();
        c.close();
    }

    private void assertWithinDeadlineOfA(long startA, long remainingAtC) {
        long deadlineA = startA + TimeUnit.MILLISECONDS.toNanos(600);
        long deadlineC = c.deadlinesSeen.get(c.deadlinesSeen.size() - 1);
        assertTrue(remainingAtC > 0 && remainingAtC <= 600 - 200, "C was given " + remainingAtC + " ms");
        assertTrue(deadlineC <= deadlineA + TimeUnit.MILLISECONDS.toNanos(SLACK_MS),
                "C's deadline is " + (deadlineC - deadlineA) / 1_000_000 + " ms past A's");
    }

    @Test
    void cGetsWhatIsLeftOfTheDeadlineOfA() {
        long startA = System.nanoTime();
        long remainingAtC = bFromA.forwardRemaining(200);
        assertWithinDeadlineOfA(startA, remainingAtC);
    }

    @Test
    void theDeadlineCrossesAnExecutorHopThroughRpcContextWrap() throws Exception {
        long startA = System.nanoTime();
        long remainingAtC = bFromA.forwardRemainingAsync(200, true).get(5, TimeUnit.SECONDS);
        assertWithinDeadlineOfA(startA, remainingAtC);
        // without the wrapper the pool thread knows no incoming call: C gets B's own 10 s
        long unwrapped = bFromA.forwardRemainingAsync(0, false).get(5, TimeUnit.SECONDS);
        assertTrue(unwrapped > 9000, "an unwrapped hop still got " + unwrapped + " ms");
    }

    @Test
    void bCallsNothingOnceTheDeadlineOfAHasPassed() throws Exception {
        // B works 800 ms, past A's 600: A times out, and B's call to C is never sent
        RpcTimeoutException atA = assertThrows(RpcTimeoutException.class, () -> bFromA.forwardRemaining(800));
        assertTrue(atA.getMessage().contains("600 ms"), atA.getMessage());
        Await.until("B finished its work", Duration.ofSeconds(5), () -> b.invocations.get() == 1
                && runtimeB.inspect().snapshot().server().inFlightCalls() == 0);
        assertEquals(0, c.invocations.get(), "C ran a call whose caller had given up");
    }

    @Test
    void theMessageOfTheUnsentCallSaysWhyAndHowToOptOut() throws Exception {
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> bFromA.forwardRemainingAsync(800, true).get(5, TimeUnit.SECONDS));
        assertInstanceOf(RpcTimeoutException.class, e.getCause());
        Await.until("B's own call to C failed", Duration.ofSeconds(5), () -> runtimeB.inspect().snapshot().server().inFlightCalls() == 0);
        assertEquals(0, c.invocations.get());
        // B's failure is visible from a direct call on B's side (same thread rules): call C from a served call
        RpcTimeoutException unsent = assertThrows(RpcTimeoutException.class, () -> {
            Object previous = io.kestrel.rpc.api.internal.ServerContext.enter(java.util.Map.of(), "test:1",
                    System.nanoTime() - 1_000_000, java.util.HashMap::new);
            try {
                b.next.remaining();
            } finally {
                io.kestrel.rpc.api.internal.ServerContext.restore(previous);
            }
        });
        assertTrue(unsent.getMessage().contains("was not sent: its deadline passed"), unsent.getMessage());
        assertTrue(unsent.getMessage().contains("propagate-deadline=\"false\""), unsent.getMessage());
    }

    @Test
    void aReferenceMayOptOut() {
        b.next = runtimeB.refer(ReferenceConfig.builder(HopService.class).url("127.0.0.1:" + runtimeC.boundPort())
                .timeout(Duration.ofSeconds(10)).propagateDeadline(false).build());
        long remainingAtC = bFromA.forwardRemaining(0);
        assertTrue(remainingAtC > 9000, "an opted-out reference still gave C only " + remainingAtC + " ms");
    }

    @Test
    void withoutAnIncomingCallACallKeepsItsOwnTimeout() {
        assertEquals(RpcContext.NO_DEADLINE, RpcContext.current().remainingMillis());
        long remainingAtC = b.next.remaining();
        assertTrue(remainingAtC > 9000 && remainingAtC <= 10_000, "C got " + remainingAtC + " ms");
    }
}
