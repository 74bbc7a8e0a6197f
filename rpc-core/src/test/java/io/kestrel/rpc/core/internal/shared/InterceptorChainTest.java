package io.kestrel.rpc.core.internal.shared;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.RpcContext;
import io.kestrel.rpc.api.RpcException;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.interceptor.CallInfo;
import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.interceptor.InterceptorException;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.TestRuntimes;
import io.kestrel.rpc.core.fixture.HopService;
import io.kestrel.rpc.core.fixture.HopServiceImpl;
import io.kestrel.rpc.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Client and server interceptors over a real loopback connection. */
class InterceptorChainTest {
    final List<String> events = new CopyOnWriteArrayList<>();
    final HopServiceImpl impl = new HopServiceImpl();
    RpcRuntime provider;
    RpcRuntime consumer;

    @AfterEach
    void stop() {
        impl.release(100);
        if (consumer != null) {
            consumer.close();
        }
        if (provider != null) {
            provider.close();
        }
        impl.close();
    }

    private HopService start(RpcRuntime.Builder providerRuntime, ServiceConfig.Builder<HopService> service,
            RpcRuntime.Builder consumerRuntime, ReferenceConfig.Builder<HopService> reference) {
        provider = providerRuntime.protocol(TestRuntimes.loopback().build()).build();
        provider.export(service.build());
        consumer = consumerRuntime.build();
        return consumer.refer(reference.url("127.0.0.1:" + provider.boundPort()).timeout(Duration.ofSeconds(5)).build());
    }

    private HopService start(ServerInterceptor server, ClientInterceptor client) {
        RpcRuntime.Builder p = RpcRuntime.builder();
        RpcRuntime.Builder c = RpcRuntime.builder();
        if (server != null) {
            p.serverInterceptor(server);
        }
        if (client != null) {
            c.clientInterceptor(client);
        }
        return start(p, ServiceConfig.builder(HopService.class, impl), c, ReferenceConfig.builder(HopService.class));
    }

    private static ClientInterceptor client(String name, int order, List<String> events) {
        return new ClientInterceptor() {
            @Override
            public CompletableFuture<Object> intercept(Chain chain) {
                events.add(name + " in");
                return chain.proceed().whenComplete((v, e) -> events.add(name + " out"));
            }

            @Override
            public int order() {
                return order;
            }
        };
    }

    private static ServerInterceptor server(String name, int order, List<String> events) {
        return new ServerInterceptor() {
            @Override
            public CompletableFuture<Object> intercept(Chain chain) {
                events.add(name + " in");
                return chain.proceed().whenComplete((v, e) -> events.add(name + " out"));
            }

            @Override
            public int order() {
                return order;
            }
        };
    }

    @Test
    void interceptorsRunByOrderThenRuntimeBeforeReferenceAndSeeTheWholeCall() throws Exception {
        List<CallInfo> seen = new CopyOnWriteArrayList<>();
        ClientInterceptor peek = chain -> {
            seen.add(chain.call());
            chain.call().requestAttachments().put("tenant", "t7");
            return chain.proceed();
        };
        ServerInterceptor serverPeek = chain -> {
            seen.add(chain.call());
            chain.call().responseAttachments().put("served-by", "p1");
            return chain.proceed();
        };
        HopService hop = start(
                RpcRuntime.builder().serverInterceptor(server("s-runtime", 0, events)).serverInterceptor(serverPeek),
                ServiceConfig.builder(HopService.class, impl).interceptor(server("s-service", -5, events)),
                RpcRuntime.builder().clientInterceptor(client("c-runtime", 0, events)).clientInterceptor(peek),
                ReferenceConfig.builder(HopService.class).interceptor(client("c-reference", 0, events))
                        .interceptor(client("c-first", -1, events)));
        assertEquals("hi", hop.echo("hi"));
        Await.until("the client interceptors saw the end of the call", () -> events.size() == 10);
        assertEquals(List.of("c-first in", "c-runtime in", "c-reference in", "s-service in", "s-runtime in",
                "s-runtime out", "s-service out", "c-reference out", "c-runtime out", "c-first out"), events);

        CallInfo clientCall = seen.get(0);
        CallInfo serverCall = seen.get(1);
        assertEquals(HopService.class.getName(), clientCall.service().interfaceName());
        assertEquals("echo", clientCall.methodName());
        assertEquals(HopService.class.getMethod("echo", String.class), serverCall.method());
        assertEquals(List.of("hi"), List.of(serverCall.arguments()));
        assertEquals("t7", serverCall.requestAttachments().get("tenant"));
        assertEquals("fory", serverCall.serialization());
        assertEquals("127.0.0.1:" + provider.boundPort(), clientCall.peerAddress());
        assertTrue(serverCall.peerAddress().startsWith("127.0.0.1:"), serverCall.peerAddress());
        assertEquals(Map.of("served-by", "p1"), clientCall.responseAttachments());
        assertEquals("p1", RpcContext.current().getResponseAttachment("served-by"));
    }

    @Test
    void aClientInterceptorShortCircuitsOrWrapsSyncAndAsyncAlike() throws Exception {
        ClientInterceptor interceptor = chain -> {
            if ("cached".equals(chain.call().arguments()[0])) {
                return CompletableFuture.completedFuture("from cache");
            }
            return chain.proceed().thenApply(v -> v + "!");
        };
        HopService hop = start(null, interceptor);
        assertEquals("from cache", hop.echo("cached"));
        assertEquals("from cache", hop.echoAsync("cached").get(5, TimeUnit.SECONDS));
        assertEquals(0, impl.invocations.get(), "a short-circuited call reached the provider");
        assertEquals("a!", hop.echo("a"));
        assertEquals("b!", hop.echoAsync("b").get(5, TimeUnit.SECONDS));
        assertEquals(2, impl.invocations.get());
    }

    @Test
    void aBlockingCallEndsItsInterceptorsOnTheCallingThreadBeforeItReturns() throws Exception {
        List<Thread> endedOn = new CopyOnWriteArrayList<>();
        ClientInterceptor timing = chain -> chain.proceed().whenComplete((v, e) -> endedOn.add(Thread.currentThread()));
        HopService hop = start(null, timing);
        assertEquals("hi", hop.echo("hi"));
        assertEquals(List.of(Thread.currentThread()), endedOn, "not the I/O thread, and before the call returned");
        assertEquals("x!", hop.echoAsync("x").thenApply(v -> v + "!").get(5, TimeUnit.SECONDS));
        Await.until("the async call's interceptor saw its end", () -> endedOn.size() == 2);
    }

    @Test
    void anInterceptorWaitingForItsOwnProceedInsideInterceptStillGetsTheAnswer() throws Exception {
        // the caller is not waiting in the proxy yet, so the answer must go up the chain where it arrives
        ClientInterceptor blocking = chain -> {
            try {
                return CompletableFuture.completedFuture(chain.proceed().get(5, TimeUnit.SECONDS) + "?");
            } catch (Exception e) {
                return CompletableFuture.failedFuture(e);
            }
        };
        HopService hop = start(null, blocking);
        assertEquals("hi?", hop.echo("hi"));
        assertEquals("again?", hop.echo("again"));
    }

    @Test
    void aServerInterceptorRefusesWithAnExceptionTheConsumerReceives() throws Exception {
        ServerInterceptor auth = chain -> "secret".equals(chain.call().requestAttachments().get("token"))
                ? chain.proceed() : CompletableFuture.failedFuture(new SecurityException("bad token"));
        HopService hop = start(auth, null);
        SecurityException e = assertThrows(SecurityException.class, () -> hop.echo("x"));
        assertEquals("bad token", e.getMessage());
        ExecutionException async = assertThrows(ExecutionException.class,
                () -> hop.echoAsync("x").get(5, TimeUnit.SECONDS));
        assertInstanceOf(SecurityException.class, async.getCause());
        assertEquals(0, impl.invocations.get());
        RpcContext.current().setAttachment("token", "secret");
        assertEquals("x", hop.echo("x"));
    }

    @Test
    void aClientInterceptorThatThrowsFailsTheCallNamingItAndLeavesNothingPending() throws Exception {
        ClientInterceptor broken = new ClientInterceptor() {
            @Override
            public CompletableFuture<Object> intercept(Chain chain) {
                if ("before".equals(chain.call().arguments()[0])) {
                    throw new IllegalStateException("broken before");
                }
                chain.proceed(); // sent, then the interceptor fails
                throw new IllegalStateException("broken after");
            }

            @Override
            public String name() {
                return "BrokenInterceptor";
            }
        };
        HopService hop = start(null, broken);
        InterceptorException before = assertThrows(InterceptorException.class, () -> hop.echo("before"));
        assertTrue(before.getMessage().contains("client interceptor BrokenInterceptor failed on "
                + HopService.class.getName() + "#echo: java.lang.IllegalStateException: broken before"), before.getMessage());
        assertEquals(0, impl.invocations.get());
        InterceptorException after = assertThrows(InterceptorException.class, () -> hop.echo("after"));
        assertTrue(after.getMessage().contains("broken after"), after.getMessage());
        ExecutionException async = assertThrows(ExecutionException.class,
                () -> hop.echoAsync("before").get(5, TimeUnit.SECONDS));
        assertInstanceOf(InterceptorException.class, async.getCause());
        Await.until("the call sent before the interceptor threw is answered", () -> impl.invocations.get() == 1
                && consumer.inspect().snapshot().client().pendingCalls() == 0);
        ClientInterceptor returnsNull = chain -> null;
        consumer.close();
        consumer = RpcRuntime.builder().clientInterceptor(returnsNull).build();
        HopService nulls = consumer.refer(ReferenceConfig.builder(HopService.class)
                .url("127.0.0.1:" + provider.boundPort()).build());
        InterceptorException nullResult = assertThrows(InterceptorException.class, () -> nulls.echo("x"));
        assertTrue(nullResult.getMessage().contains("returned null instead of a future"), nullResult.getMessage());
    }

    @Test
    void aServerInterceptorThatThrowsIsAnsweredAsServerErrorNamingIt() throws Exception {
        ServerInterceptor broken = new ServerInterceptor() {
            @Override
            public CompletableFuture<Object> intercept(Chain chain) {
                throw new IllegalArgumentException("no " + chain.call().methodName());
            }

            @Override
            public String name() {
                return "BrokenServerInterceptor";
            }
        };
        HopService hop = start(broken, null);
        RpcException e = assertThrows(RpcException.class, () -> hop.echo("x"));
        assertTrue(e.getMessage().contains("provider answered SERVER_ERROR: server interceptor BrokenServerInterceptor"
                + " failed on " + HopService.class.getName() + "#echo: java.lang.IllegalArgumentException: no echo"),
                e.getMessage());
        ExecutionException async = assertThrows(ExecutionException.class,
                () -> hop.echoAsync("x").get(5, TimeUnit.SECONDS));
        assertTrue(async.getCause().getMessage().contains("BrokenServerInterceptor"), async.getCause().getMessage());
        assertEquals(0, impl.invocations.get());
        Await.until("the provider has no call left in flight", () -> provider.inspect().snapshot().server().inFlightCalls() == 0);
        assertEquals(0, consumer.inspect().snapshot().client().pendingCalls());
    }

    @Test
    void responseAttachmentsReachTheConsumerForBlockingAndAsyncMethods() throws Exception {
        HopService hop = start(null, null);
        assertEquals("ok", hop.answerWith("region", "eu-1"));
        assertEquals(Map.of("region", "eu-1"), RpcContext.current().getResponseAttachments());
        assertEquals("x", hop.echo("x"));
        assertEquals(Map.of(), RpcContext.current().getResponseAttachments(), "the last call's answer had none");

        CompletableFuture<String> seenInCallback = hop.answerWithAsync("zone", "z2")
                .thenApply(v -> v + " " + RpcContext.current().getResponseAttachment("zone"));
        assertEquals("ok z2", seenInCallback.get(5, TimeUnit.SECONDS));
    }

    @Test
    void tooManyAttachmentsFailWithTheLimitAndItsSetting() {
        HopService hop = start(null, null);
        RpcException e = assertThrows(RpcException.class, () -> hop.answerWithMany(300));
        assertTrue(e.getMessage().contains("carries 300 attachments, over the limit of 256"
                + " (-Dkestrel.rpc.attachments.maxCount=N raises it, on both sides)"), e.getMessage());
        for (int i = 0; i < 257; i++) {
            RpcContext.current().setAttachment("k" + i, "v");
        }
        IllegalArgumentException request = assertThrows(IllegalArgumentException.class, () -> hop.echo("x"));
        assertTrue(request.getMessage().contains("the request of " + HopService.class.getName()
                + "#echo carries 257 attachments"), request.getMessage());
        assertEquals("x", hop.echo("x"), "the refused attachments were taken with the refused call");
    }

    @Test
    void theAccessLogWritesOneLinePerCallOnEachSide() throws Exception {
        List<String> lines = new CopyOnWriteArrayList<>();
        AccessLogInterceptor.observer = (logger, line) -> lines.add(logger + " " + line);
        try {
            HopService hop = start(RpcRuntime.builder().accessLog(true), ServiceConfig.builder(HopService.class, impl),
                    RpcRuntime.builder().accessLog(true), ReferenceConfig.builder(HopService.class));
            hop.echo("x");
            assertThrows(RpcException.class, () -> hop.answerWithMany(300));
            Await.until("four access log lines", () -> lines.size() == 4);
            String service = HopService.class.getName();
            assertTrue(lines.stream().anyMatch(l -> l.matches("io\\.kestrel\\.rpc\\.access\\.server " + service
                    + "#echo ok \\d+\\.\\d\\d ms peer=127\\.0\\.0\\.1:\\d+ request=\\d+B")), lines.toString());
            assertTrue(lines.stream().anyMatch(l -> l.matches("io\\.kestrel\\.rpc\\.access\\.client " + service
                    + "#echo ok \\d+\\.\\d\\d ms peer=127\\.0\\.0\\.1:" + provider.boundPort())), lines.toString());
            assertTrue(lines.stream().anyMatch(l -> l.startsWith("io.kestrel.rpc.access.client " + service
                    + "#answerWithMany error ")), lines.toString());
        } finally {
            AccessLogInterceptor.observer = null;
        }
        assertNull(AccessLogInterceptor.observer);
    }
}
