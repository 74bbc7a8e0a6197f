package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.fixture.NamedWho;
import io.kestrel.rpc.core.fixture.WhoService;
import io.netty.util.internal.ThreadExecutorMap;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * "Methods returning CompletableFuture are asynchronous; their futures complete off the I/O threads":
 * a stage attached before the answer arrives runs where the future completes, and there it may even
 * make a blocking call on the same connection (which on an event-loop thread would be refused, as it
 * would deadlock).
 */
class AsyncCallbackTest {
    RpcRuntime provider;
    NamedWho impl = new NamedWho("p");

    @BeforeEach
    void start() {
        provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).build();
        provider.export(ServiceConfig.builder(WhoService.class, impl).build());
    }

    @AfterEach
    void stop() {
        impl.release();
        provider.close();
    }

    private WhoService reference(RpcRuntime consumer) {
        return consumer.refer(ReferenceConfig.builder(WhoService.class).url("127.0.0.1:" + provider.boundPort())
                .timeout(Duration.ofSeconds(5)).build());
    }

    /** Calls heldAsync, attaches a stage while the provider still holds the answer, then lets it go. */
    private CompletableFuture<String> stageAfterAnswer(WhoService who) throws InterruptedException {
        impl.hold();
        CompletableFuture<String> future = who.heldAsync();
        CompletableFuture<String> stage = future.thenApply(name -> {
            boolean eventLoop = ThreadExecutorMap.currentExecutor() != null; // set on every Netty event-loop thread
            return name + " on " + Thread.currentThread().getName() + " (event loop " + eventLoop + "), then "
                    + who.who(); // a blocking call from the callback
        });
        impl.awaitEntered(1, Duration.ofSeconds(10));
        assertFalse(future.isDone(), "answered before the stage was attached: the test would prove nothing");
        impl.release();
        return stage;
    }

    @Test
    void futuresCompleteOnTheDefaultCallbackExecutorWhereBlockingCallsWork() throws Exception {
        try (RpcRuntime consumer = RpcRuntime.builder().build()) {
            String result = stageAfterAnswer(reference(consumer)).get(10, TimeUnit.SECONDS);
            assertTrue(result.startsWith("p on kestrel-callback-") && result.endsWith(" (event loop false), then p"),
                    result);
        }
    }

    @Test
    void theDefaultCallbackExecutorStartsNoThreadPerCall() throws Exception {
        // the common fork-join pool would: with two CPUs or fewer, CompletableFuture gives each *Async stage a new thread
        try (RpcRuntime consumer = RpcRuntime.builder().build()) {
            WhoService who = reference(consumer);
            who.heldAsync().get(10, TimeUnit.SECONDS); // connection and callback workers up
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long before = threads.getTotalStartedThreadCount();
            for (int i = 0; i < 200; i++) {
                assertEquals("p", who.heldAsync().get(10, TimeUnit.SECONDS));
            }
            long started = threads.getTotalStartedThreadCount() - before;
            assertTrue(started < 20, started + " threads started for 200 asynchronous calls");
        }
    }

    @Test
    void futuresCompleteOnTheConfiguredCallbackExecutor() throws Exception {
        ExecutorService callbacks = Executors.newSingleThreadExecutor(r -> new Thread(r, "app-callbacks"));
        try (RpcRuntime consumer = RpcRuntime.builder().callbackExecutor(callbacks).build()) {
            String result = stageAfterAnswer(reference(consumer)).get(10, TimeUnit.SECONDS);
            assertEquals("p on app-callbacks (event loop false), then p", result);
        } finally {
            callbacks.shutdownNow();
        }
    }

    @Test
    void withDirectCallbacksFuturesCompleteOnTheIoThreadThatReadTheAnswer() throws Exception {
        try (RpcRuntime consumer = RpcRuntime.builder().callbacks(Callbacks.DIRECT).build()) {
            WhoService who = reference(consumer);
            impl.hold();
            CompletableFuture<String> stage = who.heldAsync().thenApply(name -> name + " on "
                    + Thread.currentThread().getName() + " (event loop " + (ThreadExecutorMap.currentExecutor() != null)
                    + ")");
            impl.awaitEntered(1, Duration.ofSeconds(10));
            impl.release();
            String result = stage.get(10, TimeUnit.SECONDS);
            assertTrue(result.startsWith("p on ") && result.endsWith(" (event loop true)"), result);
            // the I/O thread refuses a blocking call from the callback rather than deadlock on its own connection
            impl.hold();
            CompletableFuture<String> blocking = who.heldAsync().thenApply(name -> who.who());
            impl.awaitEntered(1, Duration.ofSeconds(10));
            impl.release();
            java.util.concurrent.ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(
                    java.util.concurrent.ExecutionException.class, () -> blocking.get(10, TimeUnit.SECONDS));
            assertTrue(e.getCause() instanceof IllegalStateException, e.getCause().toString());
        }
    }

    @Test
    void callbacksSettingNamesItsChoices() {
        assertEquals(Callbacks.DIRECT, Callbacks.parse(" Direct "));
        assertEquals(Callbacks.POOL, Callbacks.parse("pool"));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Callbacks.parse("fast"));
        assertTrue(e.getMessage().contains("\"fast\" is not one of pool") && e.getMessage().contains("direct"),
                e.getMessage());
    }
}
