package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ServerBusyException;
import io.kestrel.rpc.api.config.ClusterMode;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServerLimits;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.fixture.NamedWho;
import io.kestrel.rpc.core.fixture.WhoService;
import io.kestrel.rpc.testing.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The provider's business threads over a real socket: which threads calls use, and the threads/queues bounds. */
class BusinessPoolTest {

    /** Remembers the thread each who() call ran on. */
    static final class ThreadRecordingWho extends NamedWho {
        final Set<String> threads = ConcurrentHashMap.newKeySet();

        ThreadRecordingWho() {
            super("p");
        }

        @Override
        public String who() {
            threads.add(Thread.currentThread().getName());
            return super.who();
        }
    }

    @Test
    void tenConcurrentCallersAreServedByAboutTenBusinessThreadsNotTwoHundred() throws Exception {
        ThreadRecordingWho impl = new ThreadRecordingWho();
        RpcRuntime provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).build(); // threads=200
        provider.export(ServiceConfig.builder(WhoService.class, impl).build());
        RpcRuntime consumer = RpcRuntime.builder().build();
        try {
            WhoService who = consumer.refer(ReferenceConfig.builder(WhoService.class).cluster(ClusterMode.FAILFAST)
                    .url("127.0.0.1:" + provider.boundPort()).timeout(Duration.ofSeconds(10)).build());
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> callers = new ArrayList<>();
            for (int c = 0; c < 10; c++) {
                Thread t = new Thread(() -> {
                    try {
                        for (int i = 0; i < 300; i++) {
                            assertEquals("p", who.who());
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }, "caller-" + c);
                t.start();
                callers.add(t);
            }
            for (Thread t : callers) {
                t.join(60_000);
                assertFalse(t.isAlive(), t.getName() + " did not finish");
            }
            assertNull(failure.get());
            assertEquals(3000, impl.whoCalls.get());
            System.out.printf("10 callers x 300 calls ran on %d business threads%n", impl.threads.size());
            assertTrue(impl.threads.stream().allMatch(n -> n.startsWith("kestrel-server-biz-")), impl.threads.toString());
            // at most 10 calls are in flight; a thread that has just written its answer may not be idle yet when
            // that caller's next call arrives, so a few more than 10 may start; the old pool started 200
            assertTrue(impl.threads.size() <= 16, "10 callers used " + impl.threads.size() + " business threads");
            Await.until("business threads idle", () -> provider.inspect().snapshot().pool().active() == 0);
        } finally {
            consumer.close();
            provider.close();
        }
    }

    @Test
    void aCallWaitsInTheQueueAndOneBeyondThreadsAndQueuesIsAnsweredBusy() throws Exception {
        // one thread, one queue slot; the connection's share (4) is larger, so the pool is what fills
        ProtocolConfig config = TestRuntimes.loopback().threads(1).queueCapacity(1)
                .limits(ServerLimits.builder().callsPerConnection(4).build()).build();
        RpcRuntime provider = RpcRuntime.builder().protocol(config).build();
        NamedWho impl = new NamedWho("p");
        provider.export(ServiceConfig.builder(WhoService.class, impl).build());
        RpcRuntime consumer = RpcRuntime.builder().build();
        try {
            WhoService who = consumer.refer(ReferenceConfig.builder(WhoService.class).cluster(ClusterMode.FAILFAST)
                    .url("127.0.0.1:" + provider.boundPort()).timeout(Duration.ofSeconds(10)).build());
            impl.hold();
            CompletableFuture<String> running = CompletableFuture.supplyAsync(who::held);
            impl.awaitEntered(1, Duration.ofSeconds(10));
            CompletableFuture<String> queued = CompletableFuture.supplyAsync(who::held);
            Await.until("the second call waits in the queue", () -> provider.inspect().snapshot().pool().queued() == 1);
            assertEquals(1, provider.inspect().snapshot().pool().active());
            ServerBusyException e = assertThrows(ServerBusyException.class, who::who);
            assertTrue(e.getMessage().contains("busy") && e.getMessage().contains("did not run")
                    && e.getMessage().contains("threads/queues"), e.getMessage());
            assertEquals(0, impl.whoCalls.get(), "the refused call ran");
            impl.release();
            assertEquals("p", running.get(10, TimeUnit.SECONDS));
            assertEquals("p", queued.get(10, TimeUnit.SECONDS));
            Await.until("pool empty", () -> provider.inspect().snapshot().pool().active() == 0 && provider.inspect().snapshot().pool().queued() == 0);
            assertEquals("p", who.who());
        } finally {
            impl.release();
            consumer.close();
            provider.close();
        }
    }
}
