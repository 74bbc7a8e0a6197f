package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.core.fixture.Payload;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** Many threads, one proxy, one connection: every response belongs to its own request. */
class ConcurrencyTest {
    static final List<String> SERIALIZATIONS = TestRuntimes.SERIALIZATIONS;
    static final int THREADS = 50;
    static final int CALLS_PER_THREAD = 200; // 10,000 calls per serialization

    @ParameterizedTest
    @FieldSource("SERIALIZATIONS")
    void tenThousandCallsFromFiftyThreadsShareOneConnection(String serialization) throws Exception {
        try (RpcRuntime provider = TestRuntimes.echoProvider(TestRuntimes.loopback(), serialization);
                RpcRuntime consumer = RpcRuntime.builder().build()) {
            EchoService echo = consumer.refer(TestRuntimes.echoReference(provider, serialization).build());
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            AtomicInteger mismatches = new AtomicInteger();
            List<Future<Integer>> results = new ArrayList<>();
            try {
                for (int t = 0; t < THREADS; t++) {
                    int thread = t;
                    results.add(pool.submit(() -> {
                        int ok = 0;
                        for (int i = 0; i < CALLS_PER_THREAD; i++) {
                            long id = thread * 1_000_000L + i;
                            if (i % 2 == 0) {
                                String expected = "t" + thread + "-" + i;
                                if (!expected.equals(echo.echo(expected))) {
                                    mismatches.incrementAndGet();
                                    continue;
                                }
                            } else {
                                Payload p = Payload.sample(id);
                                if (!p.equals(echo.echoPayload(p))) {
                                    mismatches.incrementAndGet();
                                    continue;
                                }
                            }
                            ok++;
                        }
                        return ok;
                    }));
                }
                int total = 0;
                for (Future<Integer> f : results) {
                    total += f.get(120, TimeUnit.SECONDS);
                }
                assertEquals(0, mismatches.get(), "responses matched to the wrong requests");
                assertEquals(THREADS * CALLS_PER_THREAD, total);
            } finally {
                pool.shutdownNow();
            }
            assertEquals(1, provider.inspect().snapshot().server().wire().connectionsOpened(),
                    "exactly one TCP connection must carry all calls");
            assertEquals(1, consumer.inspect().snapshot().wire().connectionsOpened());
            assertTrue(consumer.inspect().snapshot().wire().framesWritten() >= THREADS * CALLS_PER_THREAD);
            assertEquals(0, consumer.inspect().connection("127.0.0.1:" + provider.boundPort()).orElseThrow().pendingCalls());
        }
    }
}
