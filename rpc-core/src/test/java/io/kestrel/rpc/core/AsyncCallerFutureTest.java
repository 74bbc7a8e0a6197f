package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.RpcContext;
import io.kestrel.rpc.api.RpcException;
import io.kestrel.rpc.api.config.ClusterMode;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.core.fixture.EchoServiceImpl;
import io.kestrel.rpc.core.fixture.HopService;
import io.kestrel.rpc.core.fixture.HopServiceImpl;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The future an asynchronous method returns completes on the callback executor, with the response's
 * attachments in that thread's RpcContext before the caller's stages run, for answers and failures,
 * with and without interceptors. The callback executor's one thread is kept busy until the caller's
 * stage is attached, so the stage certainly runs where the future completes.
 */
class AsyncCallerFutureTest {
    private final ExecutorService callbacks = Executors.newSingleThreadExecutor(r -> new Thread(r, "app-callbacks"));
    private final CountDownLatch callbacksFree = new CountDownLatch(1);
    private RpcRuntime provider;

    @BeforeEach
    void start() {
        provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).build();
        provider.export(ServiceConfig.builder(HopService.class, new HopServiceImpl()).build());
        callbacks.execute(() -> awaitQuietly(callbacksFree));
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @AfterEach
    void stop() {
        callbacksFree.countDown();
        callbacks.shutdownNow();
        provider.close();
    }

    private HopService reference(RpcRuntime consumer, ClusterMode mode) {
        return consumer.refer(ReferenceConfig.builder(HopService.class).url("127.0.0.1:" + provider.boundPort())
                .cluster(mode).timeout(Duration.ofSeconds(5)).build());
    }

    /** Attaches a stage reporting its thread and the received attachment "zone", then frees the callback thread. */
    private String answeredWithZone(HopService hop) throws Exception {
        CompletableFuture<String> seen = hop.answerWithAsync("zone", "z2")
                .thenApply(v -> v + " on " + Thread.currentThread().getName() + ", zone "
                        + RpcContext.current().getResponseAttachment("zone"));
        callbacksFree.countDown();
        return seen.get(10, TimeUnit.SECONDS);
    }

    @Test
    void anAnswerCompletesOnTheCallbackExecutorWithItsAttachmentsReceived() throws Exception {
        try (RpcRuntime consumer = RpcRuntime.builder().callbackExecutor(callbacks).build()) {
            assertEquals("ok on app-callbacks, zone z2", answeredWithZone(reference(consumer, ClusterMode.FAILFAST)));
        }
    }

    @Test
    void throughInterceptorsTooTheAnswerCompletesOnTheCallbackExecutorWithItsAttachmentsReceived() throws Exception {
        ClientInterceptor passThrough = chain -> chain.proceed();
        try (RpcRuntime consumer = RpcRuntime.builder().callbackExecutor(callbacks).clientInterceptor(passThrough)
                .build()) {
            assertEquals("ok on app-callbacks, zone z2", answeredWithZone(reference(consumer, ClusterMode.FAILFAST)));
        }
    }

    @Test
    void aFailureCompletesOnTheCallbackExecutorAndClearsTheReceivedAttachments() throws Exception {
        try (RpcRuntime consumer = RpcRuntime.builder().callbackExecutor(callbacks).build()) {
            HopService hop = reference(consumer, ClusterMode.FAILFAST);
            answeredWithZone(hop); // the callback thread has received zone=z2
            CountDownLatch free = new CountDownLatch(1);
            callbacks.execute(() -> awaitQuietly(free));
            provider.close();
            CompletableFuture<String> seen = hop.echoAsync("x").handle((v, e) -> e.getClass().getSimpleName() + " on "
                    + Thread.currentThread().getName() + ", received " + RpcContext.current().getResponseAttachments());
            free.countDown();
            assertEquals("ConnectionUnavailableException on app-callbacks, received {}", seen.get(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void aCallRetriedOnAnotherProviderCompletesOnceOnTheCallbackExecutor() throws Exception {
        try (RpcRuntime echoOnly = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).build();
                RpcRuntime consumer = RpcRuntime.builder().callbackExecutor(callbacks).build()) {
            echoOnly.export(ServiceConfig.builder(EchoService.class, new EchoServiceImpl()).build());
            // round robin sends every other call first to the provider without HopService: retried on the other
            HopService hop = consumer.refer(ReferenceConfig.builder(HopService.class)
                    .url("127.0.0.1:" + echoOnly.boundPort() + ",127.0.0.1:" + provider.boundPort())
                    .loadBalance("roundrobin").cluster(ClusterMode.FAILOVER).retries(1).timeout(Duration.ofSeconds(5))
                    .build());
            List<CompletableFuture<String>> seen = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                String text = "x" + i;
                seen.add(hop.echoAsync(text).thenApply(v -> v + " on " + Thread.currentThread().getName()));
            }
            callbacksFree.countDown();
            for (int i = 0; i < 4; i++) {
                assertEquals("x" + i + " on app-callbacks", seen.get(i).get(10, TimeUnit.SECONDS));
            }
        }
    }

    @Test
    void underFailsafeAFailureCompletesWithNullOnTheCallbackExecutor() throws Exception {
        try (RpcRuntime consumer = RpcRuntime.builder().callbackExecutor(callbacks).build()) {
            HopService hop = reference(consumer, ClusterMode.FAILSAFE);
            hop.echo("connected");
            provider.close();
            CompletableFuture<String> seen = hop.echoAsync("x").thenApply(v -> v + " on " + Thread.currentThread().getName());
            callbacksFree.countDown();
            assertEquals("null on app-callbacks", seen.get(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void aCallbackExecutorThatRefusesFailsTheCallInsteadOfLeavingItWaiting() throws Exception {
        try (RpcRuntime consumer = RpcRuntime.builder().callbackExecutor(callbacks).build()) {
            HopService hop = reference(consumer, ClusterMode.FAILFAST);
            callbacksFree.countDown();
            callbacks.shutdown();
            assertTrue(callbacks.awaitTermination(10, TimeUnit.SECONDS));
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> hop.echoAsync("x").get(10, TimeUnit.SECONDS));
            assertInstanceOf(RpcException.class, e.getCause());
            assertInstanceOf(RejectedExecutionException.class, e.getCause().getCause());
        }
    }
}
