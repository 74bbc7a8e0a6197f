package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServerLimits;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.testing.Await;
import io.kestrel.rpc.testing.NettyLeakCheck;
import io.kestrel.rpc.testing.RawPeers;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One hostile-input contract for every port (issue 34): the same attacks, over real sockets, against a provider
 * on each protocol a port can speak ({@link ProtocolConfig#NAMES}; {@link PortAttacker} writes each one's
 * frames). While each attack runs and after it, a well-behaved client calling every few milliseconds must see
 * no failure; the provider's budgeted memory stays within its budget, the attacker's connections are closed,
 * and everything they held is given back. Peak memory (the budget, Netty's direct memory, the heap) is
 * printed, one line per attack and protocol. Limits are small so that attacks meet them in seconds.
 */
@Timeout(60)
@ExtendWith(NettyLeakCheck.class)
class PortContractTest {
    static final long BUDGET = 32L << 20;
    /** The smallest allowed: each connection that does not read costs the event loop at most this much work per turn. */
    static final int WRITE_BUFFER = 64 * 1024;
    static final int FLOODERS = 2;
    /**
     * The good client's timeout: generous, because these tests run with paranoid leak detection (a stack trace
     * per buffer) on shared CI machines; a provider that stops serving it still fails them.
     */
    static final Duration GOOD_TIMEOUT = Duration.ofSeconds(10);
    static final int PAYLOAD = 2 << 20;
    private static final Map<String, RpcRuntime> PROVIDERS = new ConcurrentHashMap<>();
    private static final Map<String, EchoService> GOOD = new ConcurrentHashMap<>();
    private static final RpcRuntime CONSUMER = RpcRuntime.builder().build();

    static Stream<String> protocols() {
        return ProtocolConfig.NAMES.stream();
    }

    @AfterAll
    static void stop() {
        CONSUMER.close();
        PROVIDERS.values().forEach(RpcRuntime::close);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("protocols")
    void heartbeatsNeverReadHoldNoMoreThanTheWriteBufferPerConnection(String protocol) throws Exception {
        PortAttacker attacker = PortAttacker.of(protocol);
        underAttack(protocol, "heartbeats never read", provider -> flood(provider, attacker::heartbeat));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("protocols")
    void unknownMethodCallsNeverReadHoldNoMoreThanTheWriteBufferPerConnection(String protocol) throws Exception {
        PortAttacker attacker = PortAttacker.of(protocol);
        underAttack(protocol, "unknown-method calls never read",
                provider -> flood(provider, attacker::unknownMethod));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("protocols")
    void largeEchoesNeverReadAreClosedAtTheWriteStallTimeout(String protocol) throws Exception {
        PortAttacker attacker = PortAttacker.of(protocol);
        String large = "x".repeat(256 * 1024);
        underAttack(protocol, "large echoes never read", provider -> {
            try (Socket s = attackerSocket(provider)) {
                Thread writer = echoes(s, attacker, large);
                await("the provider closes the connection that does not read (write-stall-timeout)",
                        () -> !writer.isAlive());
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("protocols")
    void halfSentLargeBodiesHoldAtMostTheirShareAndAreCutAtTheFrameTimeout(String protocol) throws Exception {
        PortAttacker attacker = PortAttacker.of(protocol);
        underAttack(protocol, "half-sent large bodies", provider -> {
            List<Socket> sockets = new ArrayList<>();
            try {
                byte[] half = new byte[PAYLOAD / 2];
                for (int i = 0; i < 40; i++) {
                    Socket s = new Socket("127.0.0.1", provider.boundPort());
                    sockets.add(s);
                    OutputStream out = s.getOutputStream();
                    out.write(attacker.requestHeader(i + 1, PAYLOAD - 4096));
                    out.write(half);
                    out.flush();
                }
                await("the frame timeout closes every half-sent frame's connection",
                        () -> provider.inspect().snapshot().server().connections() == 1);
            } finally {
                for (Socket s : sockets) {
                    s.close();
                }
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("protocols")
    void aSlowReaderOfLargeEchoesHoldsBoundedMemory(String protocol) throws Exception {
        PortAttacker attacker = PortAttacker.of(protocol);
        String large = "x".repeat(256 * 1024);
        underAttack(protocol, "slow reader", provider -> {
            AtomicLong read = new AtomicLong();
            try (Socket s = new Socket("127.0.0.1", provider.boundPort())) {
                Thread writer = echoes(s, attacker, large);
                long end = System.nanoTime() + Duration.ofSeconds(3).toNanos();
                InputStream in = s.getInputStream();
                byte[] chunk = new byte[8 * 1024];
                while (System.nanoTime() < end) { // about 1.6 MB/s: slower than the provider answers
                    int n = in.read(chunk);
                    if (n < 0) {
                        break;
                    }
                    read.addAndGet(n);
                    LockSupport.parkNanos(5_000_000);
                }
                s.close();
                writer.join(10_000);
            }
            assertTrue(read.get() > large.length(), "the slow reader got answers: " + read.get() + " bytes");
        });
    }

    // --- the shared frame of every attack ------------------------------------------------------------------

    interface Attack {
        void run(RpcRuntime provider) throws Exception;
    }

    /**
     * Runs {@code attack} against the protocol's provider while the good client calls; then checks the good
     * client was served throughout and after, the budget held, and nothing of the attack is left.
     */
    private static void underAttack(String protocol, String attackName, Attack attack) throws Exception {
        RpcRuntime provider = provider(protocol);
        EchoService good = GOOD.get(protocol);
        assertEquals("warm", good.echo("warm"));
        HostileLoadTest.GoodClient client = new HostileLoadTest.GoodClient(good);
        PeakMemory memory = new PeakMemory(provider);
        try {
            attack.run(provider);
            int during = client.ok.get();
            await("the good client keeps being served after the attack", () -> client.ok.get() >= during + 20);
        } finally {
            client.stop();
            memory.stop();
        }
        System.out.println("PortContractTest " + protocol + ", " + attackName + ": " + memory + ", good client "
                + client.ok.get() + " calls, " + client.failed.get() + " failed"); // the measured figures, in the report
        assertEquals(0, client.failed.get(), protocol + ": the good client's calls failed: "
                + client.firstFailure.get());
        assertTrue(memory.budget.get() <= BUDGET, protocol + ": " + memory);
        await("every connection but the good client's is closed", () -> provider.inspect().snapshot().server().connections() == 1);
        await("the provider holds no memory for requests or responses", () -> provider.inspect().snapshot().server().memoryInUseBytes() == 0);
    }

    /**
     * {@value #FLOODERS} peers that write {@code frame}s as fast as they can for three seconds and never read; meanwhile the
     * provider holds no more for each than its write buffer (and the answers to one read), whatever it is sent.
     */
    private static void flood(RpcRuntime provider, LongFunction<byte[]> frame) throws Exception {
        List<Socket> sockets = new ArrayList<>();
        AtomicLong sent = new AtomicLong();
        try {
            for (int c = 0; c < FLOODERS; c++) {
                Socket s = attackerSocket(provider);
                sockets.add(s);
                untilClosed(() -> {
                    OutputStream out = s.getOutputStream();
                    ByteArrayOutputStream batch = new ByteArrayOutputStream();
                    for (long id = 1; ; id++) {
                        batch.writeBytes(frame.apply(id));
                        if (batch.size() >= 64 * 1024) {
                            out.write(batch.toByteArray());
                            sent.addAndGet(batch.size());
                            batch.reset();
                        }
                    }
                });
            }
            long end = System.nanoTime() + Duration.ofSeconds(3).toNanos();
            while (System.nanoTime() < end) {
                long held = provider.inspect().snapshot().server().memoryInUseBytes();
                assertTrue(held <= FLOODERS * 2L * WRITE_BUFFER + (1 << 20), "answers nobody reads held " + held + " bytes");
                LockSupport.parkNanos(1_000_000);
            }
        } finally {
            for (Socket s : sockets) {
                s.close();
            }
        }
        assertTrue(sent.get() > 0, "the flood reached the provider");
    }

    /** A socket with a small receive window, as a peer that stopped reading soon shows. */
    private static Socket attackerSocket(RpcRuntime provider) throws IOException {
        return RawPeers.attacker(provider.boundPort());
    }

    /** Calls {@code echo(text)} on {@code s} as fast as it can, until the connection is closed. */
    private static Thread echoes(Socket s, PortAttacker attacker, String text) {
        return untilClosed(() -> {
            OutputStream out = s.getOutputStream();
            for (long id = 1; ; id++) {
                out.write(attacker.echo(id, text, id == 1));
                out.flush();
            }
        });
    }

    /** Runs the attacker's writes on a thread that ends when the connection is closed. */
    private static Thread untilClosed(RawPeers.Writes writes) {
        return RawPeers.untilClosed("attacker", writes);
    }

    private static RpcRuntime provider(String protocol) {
        return PROVIDERS.computeIfAbsent(protocol, name -> {
            PortAttacker attacker = PortAttacker.of(name);
            ServerLimits limits = ServerLimits.builder().maxConnectionsPerHost(100).callsPerConnection(4)
                    .memoryBudgetBytes(BUDGET).frameTimeout(Duration.ofSeconds(1))
                    .writeStallTimeout(Duration.ofSeconds(2)).writeBufferBytes(WRITE_BUFFER).build();
            RpcRuntime provider = TestRuntimes.echoProvider(TestRuntimes.loopback().name(name).threads(16)
                    .payloadBytes(PAYLOAD).serialization(attacker.serialization()).limits(limits).build());
            GOOD.put(name, CONSUMER.refer(ReferenceConfig.builder(EchoService.class).protocol(name)
                    .url("127.0.0.1:" + provider.boundPort()).serialization(attacker.serialization())
                    .timeout(GOOD_TIMEOUT).build()));
            return provider;
        });
    }

    static void await(String what, java.util.function.BooleanSupplier condition) throws InterruptedException {
        Await.until(what, Duration.ofSeconds(20), condition);
    }

    /**
     * The largest values seen, sampled every millisecond: the provider's budgeted bytes, Netty's direct memory
     * (this JVM's, the good client's included) and the heap in use.
     */
    static final class PeakMemory {
        final AtomicLong budget = new AtomicLong();
        final AtomicLong direct = new AtomicLong();
        final AtomicLong heap = new AtomicLong();
        private volatile boolean running = true;
        private final Thread thread;

        PeakMemory(RpcRuntime provider) {
            thread = new Thread(() -> {
                while (running) {
                    budget.accumulateAndGet(provider.inspect().snapshot().server().memoryInUseBytes(), Math::max);
                    if (ByteBufAllocator.DEFAULT instanceof ByteBufAllocatorMetricProvider m) {
                        direct.accumulateAndGet(m.metric().usedDirectMemory(), Math::max);
                    }
                    heap.accumulateAndGet(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(),
                            Math::max);
                    LockSupport.parkNanos(1_000_000);
                }
            }, "peak-memory");
            thread.setDaemon(true);
            thread.start();
        }

        void stop() throws InterruptedException {
            running = false;
            thread.join(10_000);
        }

        @Override
        public String toString() {
            return String.format("budget %.1f MiB of %d MiB, Netty direct %.1f MiB, heap %.1f MiB",
                    budget.get() / 1048576.0, BUDGET >> 20, direct.get() / 1048576.0, heap.get() / 1048576.0);
        }
    }
}
