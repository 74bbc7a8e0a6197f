package io.kestrel.rpc.core.internal.shared;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ServerBusyException;
import io.kestrel.rpc.api.config.ClusterMode;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.TestRuntimes;
import io.kestrel.rpc.core.fixture.NamedWho;
import io.kestrel.rpc.core.fixture.WhoService;
import io.kestrel.rpc.testing.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Per-method limits: the provider's {@code executes} and the consumer's {@code actives}, over real sockets. */
class MethodLimitsTest {
    private final List<RpcRuntime> runtimes = new ArrayList<>();
    private final NamedWho p1 = new NamedWho("p1");
    private final NamedWho p2 = new NamedWho("p2");

    @AfterEach
    void stop() {
        p1.release();
        p2.release();
        for (int i = runtimes.size() - 1; i >= 0; i--) {
            runtimes.get(i).close();
        }
    }

    private String provider(NamedWho impl, int executes) {
        RpcRuntime r = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).build();
        runtimes.add(r);
        r.export(ServiceConfig.builder(WhoService.class, impl).executes(executes).build());
        return "127.0.0.1:" + r.boundPort();
    }

    private WhoService reference(String urls, ReferenceConfig.Builder<WhoService> ref) {
        RpcRuntime r = RpcRuntime.builder().build();
        runtimes.add(r);
        return r.refer(ref.url(urls).timeout(Duration.ofSeconds(5)).build());
    }

    @Test
    void executesAnswersBusyWithoutRunningAndCountsPerMethod() throws Exception {
        String address = provider(p1, 1);
        WhoService who = reference(address, ReferenceConfig.builder(WhoService.class).cluster(ClusterMode.FAILFAST));
        p1.hold();
        CompletableFuture<String> first = who.heldAsync();
        p1.awaitEntered(1, Duration.ofSeconds(10));
        ExecutionException e = assertThrows(ExecutionException.class, () -> who.heldAsync().get(5, TimeUnit.SECONDS));
        Throwable busy = assertInstanceOf(ServerBusyException.class, e.getCause());
        assertTrue(busy.getMessage().contains(WhoService.class.getName() + "#heldAsync is running 1 times on this provider,"
                + " its limit (executes=\"1\" on the service); not run"), busy.getMessage());
        assertEquals(1, p1.heldCalls.get(), "the refused call ran");
        assertEquals("p1", who.who(), "another method has its own count");
        p1.release();
        assertEquals("p1", first.get(5, TimeUnit.SECONDS));
        assertEquals("p1", who.heldAsync().get(5, TimeUnit.SECONDS), "the count went back down when the held call finished");
    }

    @Test
    void failoverRetriesACallRefusedByExecutesOnAnotherProvider() throws Exception {
        String a1 = provider(p1, 1);
        String a2 = provider(p2, 1);
        WhoService who = reference(a1 + "," + a2, ReferenceConfig.builder(WhoService.class).loadBalance("roundrobin"));
        p1.hold();
        // occupy p1's only slot; round robin may send this one to p2 first, so repeat until p1 holds one
        List<CompletableFuture<String>> holders = new ArrayList<>();
        while (p1.heldCalls.get() == 0) {
            holders.add(who.heldAsync());
            Await.until("the held call arrived", () -> p1.heldCalls.get() + p2.heldCalls.get() == holders.size());
        }
        int p2Before = p2.heldCalls.get();
        for (int i = 0; i < 10; i++) {
            assertEquals("p2", who.heldAsync().get(5, TimeUnit.SECONDS), "call " + i + " was not retried on p2");
        }
        assertEquals(1, p1.heldCalls.get(), "p1 ran a call beyond its executes limit");
        assertEquals(p2Before + 10, p2.heldCalls.get(), "each call ran exactly once, on p2");
        p1.release();
        for (CompletableFuture<String> h : holders) {
            h.get(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void activesFailsACallAtOnceWithoutSendingIt() throws Exception {
        String address = provider(p1, 0);
        WhoService who = reference(address, ReferenceConfig.builder(WhoService.class).actives(1));
        p1.hold();
        CompletableFuture<String> first = who.heldAsync();
        p1.awaitEntered(1, Duration.ofSeconds(10));
        ExecutionException e = assertThrows(ExecutionException.class, () -> who.heldAsync().get(5, TimeUnit.SECONDS));
        assertInstanceOf(ServerBusyException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains(WhoService.class.getName() + "#heldAsync was not sent: 1 calls"
                + " of it are in flight from this consumer, its limit (actives=\"1\" on the reference)"),
                e.getCause().getMessage());
        assertEquals("p1", who.who(), "another method has its own count");
        assertEquals(1, p1.heldCalls.get(), "the refused call reached the provider");
        p1.release();
        assertEquals("p1", first.get(5, TimeUnit.SECONDS));
        assertEquals("p1", who.heldAsync().get(5, TimeUnit.SECONDS), "the count went back down");
    }
}
