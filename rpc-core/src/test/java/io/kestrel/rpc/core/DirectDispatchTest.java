package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.NonBlocking;
import io.kestrel.rpc.api.config.Dispatch;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code dispatch}: which provider thread runs a method. Direct methods run on the connection's I/O
 * thread ("kestrel-server-io-*"), the others on the business pool ("kestrel-server-biz-*").
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DirectDispatchTest {

    /** Each method answers with the name of the thread that ran it. */
    public interface Where {
        String plain();

        @NonBlocking
        String nonBlocking();

        CompletableFuture<String> async();

        /** Makes a synchronous RPC call to {@link #plain()} of the same provider. */
        String nested();
    }

    /** Answers with thread names; {@link #nested()} calls {@code next} when set. */
    static final class WhereImpl implements Where {
        volatile Where next;

        @Override
        public String plain() {
            return Thread.currentThread().getName();
        }

        @Override
        public String nonBlocking() {
            return Thread.currentThread().getName();
        }

        @Override
        public CompletableFuture<String> async() {
            return CompletableFuture.completedFuture(Thread.currentThread().getName());
        }

        @Override
        public String nested() {
            return next.plain();
        }
    }

    @Test
    void autoRunsNonBlockingAndCompletableFutureMethodsOnTheIoThreadAndTheRestOnThePool() throws Exception {
        try (Pair p = Pair.start(null)) {
            assertTrue(p.where.plain().startsWith("kestrel-server-biz"), p.where.plain());
            assertTrue(p.where.nonBlocking().startsWith("kestrel-server-io"), p.where.nonBlocking());
            String async = p.where.async().get(10, TimeUnit.SECONDS);
            assertTrue(async.startsWith("kestrel-server-io"), async);
        }
    }

    @Test
    void poolRunsEveryMethodOnTheBusinessThreads() throws Exception {
        try (Pair p = Pair.start(Dispatch.POOL)) {
            assertTrue(p.where.nonBlocking().startsWith("kestrel-server-biz"), p.where.nonBlocking());
            String async = p.where.async().get(10, TimeUnit.SECONDS);
            assertTrue(async.startsWith("kestrel-server-biz"), async);
        }
    }

    @Test
    void directRunsEveryMethodOnTheIoThreadAndManyCallsStillAllAnswer() throws Exception {
        try (Pair p = Pair.start(Dispatch.DIRECT)) {
            assertTrue(p.where.plain().startsWith("kestrel-server-io"), p.where.plain());
            // pipelined calls on one connection, answered from the I/O thread
            CompletableFuture<?>[] calls = new CompletableFuture<?>[500];
            for (int i = 0; i < calls.length; i++) {
                calls[i] = p.where.async();
            }
            CompletableFuture.allOf(calls).get(30, TimeUnit.SECONDS);
            for (CompletableFuture<?> c : calls) {
                assertTrue(((String) c.join()).startsWith("kestrel-server-io"));
            }
        }
    }

    @Test
    void aBlockingRpcCallFromADirectMethodIsRefusedWithTheFix() throws Exception {
        try (Pair p = Pair.start(Dispatch.DIRECT)) {
            p.impl.next = p.provider.refer(ReferenceConfig.builder(Where.class)
                    .url("127.0.0.1:" + p.provider.boundPort()).timeout(Duration.ofSeconds(30)).build());
            // the provider's exception keeps its type on the consumer
            IllegalStateException e = assertThrows(IllegalStateException.class, p.where::nested);
            assertTrue(e.getMessage().contains("Blocking call " + Where.class.getName() + "#plain made on a Netty"
                    + " event-loop thread")
                    && e.getMessage().contains("dispatch=\"pool\""), e.getMessage());
        }
        // the same nested call works when the method runs on the pool
        try (Pair p = Pair.start(Dispatch.POOL)) {
            p.impl.next = p.provider.refer(ReferenceConfig.builder(Where.class)
                    .url("127.0.0.1:" + p.provider.boundPort()).timeout(Duration.ofSeconds(30)).build());
            assertTrue(p.where.nested().startsWith("kestrel-server-biz"));
        }
    }

    @Test
    void dispatchValuesParseAndABadOneNamesTheChoices() {
        assertEquals(Dispatch.DIRECT, Dispatch.parse(" Direct "));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Dispatch.parse("io"));
        assertTrue(e.getMessage().contains("dispatch \"io\" is not one of auto") && e.getMessage().contains("pool")
                && e.getMessage().contains("direct"), e.getMessage());
    }

    /** A provider exporting {@link Where} with a dispatch (null: the default) and a consumer of it. */
    private record Pair(RpcRuntime provider, RpcRuntime consumer, WhereImpl impl, Where where) implements AutoCloseable {
        static Pair start(Dispatch dispatch) {
            RpcRuntime provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).build();
            WhereImpl impl = new WhereImpl();
            ServiceConfig.Builder<Where> b = ServiceConfig.builder(Where.class, impl);
            if (dispatch != null) {
                b.dispatch(dispatch);
            }
            provider.export(b.build());
            RpcRuntime consumer = RpcRuntime.builder().build();
            // a first call on a loaded machine (class loading, JIT) can exceed the default 3 s
            Where where = consumer.refer(ReferenceConfig.builder(Where.class)
                    .url("127.0.0.1:" + provider.boundPort()).timeout(Duration.ofSeconds(30)).build());
            return new Pair(provider, consumer, impl, where);
        }

        @Override
        public void close() {
            consumer.close();
            provider.close();
        }
    }
}
