package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServerLimits;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.api.serialization.SerializerIds;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.testing.Await;
import io.kestrel.rpc.transport.Status;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One hostile or broken client must not take the provider away from the others. Each test runs an
 * attack over raw sockets while a well-behaved client calls once every few milliseconds; the good
 * client must be served throughout (every call answered correctly within its timeout) and the
 * provider's memory must stay within its budget. Limits are set small so that attacks meet them
 * in seconds; the defaults are the same mechanisms at sizes normal traffic never meets.
 */
@Timeout(120)
class HostileLoadTest {
    static final String ECHO = EchoService.class.getName() + "#echo(java.lang.String)";
    static final String SLEEP = EchoService.class.getName() + "#sleep(long)";
    static final long BUDGET = 32L << 20;
    static final int CALLS_PER_CONNECTION = 4;
    static final Duration FRAME_TIMEOUT = Duration.ofSeconds(1);
    static final Duration STALL_TIMEOUT = Duration.ofSeconds(2);

    static RpcRuntime provider;
    static RpcRuntime consumer;
    static EchoService good;
    static Serializer kryo;
    private GoodClient client;
    private MemorySampler memory;

    @BeforeAll
    static void start() {
        ServerLimits limits = ServerLimits.builder().maxConnections(60).maxConnectionsPerHost(50)
                .callsPerConnection(CALLS_PER_CONNECTION).memoryBudgetBytes(BUDGET).frameTimeout(FRAME_TIMEOUT)
                .writeStallTimeout(STALL_TIMEOUT).writeBufferBytes(256 * 1024).build();
        ProtocolConfig protocol = TestRuntimes.loopback().threads(16).payloadBytes(2 << 20).serialization("kryo")
                .limits(limits).build();
        provider = TestRuntimes.echoProvider(protocol);
        consumer = RpcRuntime.builder().build();
        good = consumer.refer(ReferenceConfig.builder(EchoService.class).url("127.0.0.1:" + provider.boundPort())
                .serialization("kryo").timeout(Duration.ofSeconds(5)).build());
        kryo = TestRuntimes.serializer("kryo", ClassAllowlist.withDefaults());
    }

    @AfterAll
    static void stop() {
        consumer.close();
        provider.close();
    }

    @BeforeEach
    void startGoodClientAndSampler() {
        assertEquals("warm", good.echo("warm"));
        client = new GoodClient(good);
        memory = new MemorySampler();
    }

    @AfterEach
    void goodClientWasServedThroughout() throws Exception {
        int before = client.ok.get();
        await("the good client keeps being served after the attack", () -> client.ok.get() >= before + 20);
        client.stop();
        memory.stop();
        assertEquals(0, client.failed.get(), "the good client's calls failed: " + client.firstFailure.get());
        assertTrue(memory.max.get() <= BUDGET, "provider memory reached " + memory.max.get() + " of a budget of " + BUDGET);
        await("every connection but the good client's is closed", () -> provider.inspect().snapshot().server().connections() == 1);
        await("the provider holds no memory for requests or responses", () -> provider.inspect().snapshot().server().memoryInUseBytes() == 0);
    }

    @Test
    void aClientThatNeverReadsLargeResponsesIsClosedAndHoldsBoundedMemory() throws Exception {
        byte[] large = args("x".repeat(256 * 1024));
        try (Socket s = new Socket("127.0.0.1", provider.boundPort())) {
            Thread writer = writeUntilClosed(s, out -> {
                write(out, 1, 0, ECHO, large);
                for (long id = 2; ; id++) {
                    write(out, id, 0, null, large);
                }
            });
            await("the connection that does not read is closed", () -> !writer.isAlive());
        }
        assertTrue(memory.max.get() > 0, "the attack reached the provider");
    }

    @Test
    void aClientThatNeverReadsAmplifiedErrorsIsClosedAndHoldsBoundedMemory() throws Exception {
        byte[] tiny = args("?");
        try (Socket s = new Socket("127.0.0.1", provider.boundPort())) {
            Thread writer = writeUntilClosed(s, out -> {
                for (long id = 1; ; id++) {
                    write(out, id, 42, null, tiny); // an undefined method reference: a longer error answer each
                }
            });
            await("the connection that does not read is closed", () -> !writer.isAlive());
        }
    }

    @Test
    void pipelinedLargeRequestsBeyondTheConnectionsCallsAreRefusedNotLost() throws Exception {
        // Four sleeping calls hold the connection's 4 call slots for 3 s, so the large requests pipelined behind
        // them (10 frames, 10 MiB, per write) arrive while none may run: however quickly this provider works
        // (on a fast JDK it kept up with the large requests alone and refused none), they are refused at once
        // ("did not run"), not queued without bound and not dropped. Once the sleeps end, calls run again.
        int large = 60;
        long finalId = 1_000;
        byte[] big = args("y".repeat(1 << 20));
        Map<Long, Integer> statusById = new ConcurrentHashMap<>();
        List<String> refusals = new ArrayList<>();
        CountDownLatch sleepsAnswered = new CountDownLatch(CALLS_PER_CONNECTION);
        int expected = CALLS_PER_CONNECTION + large + 1;
        try (Socket s = new Socket("127.0.0.1", provider.boundPort())) {
            s.setSoTimeout(30_000);
            Thread reader = new Thread(() -> {
                try {
                    DataInputStream in = new DataInputStream(s.getInputStream());
                    for (int i = 0; i < expected; i++) {
                        in.readUnsignedShort();
                        in.readUnsignedByte();
                        in.readUnsignedByte();
                        in.readUnsignedByte();
                        int status = in.readUnsignedByte();
                        long id = in.readLong();
                        byte[] body = new byte[in.readInt()];
                        in.readFully(body);
                        if (statusById.putIfAbsent(id, status) != null) {
                            statusById.put(-id, status); // a second answer to one request: reported below
                        }
                        if (id <= CALLS_PER_CONNECTION) {
                            sleepsAnswered.countDown();
                        }
                        if (status == Status.SERVER_BUSY.code() && refusals.size() < 3) {
                            synchronized (refusals) {
                                refusals.add(new String(body, StandardCharsets.UTF_8));
                            }
                        }
                    }
                } catch (IOException e) {
                    statusById.put(Long.MIN_VALUE, -1);
                }
            }, "greedy-reader");
            reader.start();
            OutputStream out = s.getOutputStream();
            byte[] sleepArgs = sleepArgs(3_000);
            write(out, 1, 1, SLEEP, sleepArgs);
            for (int id = 2; id <= CALLS_PER_CONNECTION; id++) {
                write(out, id, 1, null, sleepArgs);
            }
            ByteArrayOutputStream burst = new ByteArrayOutputStream(11 << 20);
            int first = CALLS_PER_CONNECTION + 1;
            write(burst, first, 0, ECHO, big);
            for (int id = first + 1; id < first + large; id++) {
                write(burst, id, 0, null, big);
                if ((id - first + 1) % 10 == 0 || id == first + large - 1) {
                    out.write(burst.toByteArray());
                    out.flush();
                    burst.reset();
                }
            }
            assertTrue(sleepsAnswered.await(30, TimeUnit.SECONDS), "the sleeping calls ended");
            write(out, finalId, 0, null, big);
            reader.join(60_000);
        }
        assertEquals(expected, statusById.size(), "every request gets exactly one answer: " + statusById);
        int ok = Status.OK.code();
        int busy = Status.SERVER_BUSY.code();
        for (long id = 1; id <= CALLS_PER_CONNECTION; id++) {
            assertEquals(ok, statusById.get(id), "sleeping call " + id + " ran: " + statusById);
        }
        assertTrue(statusById.values().stream().anyMatch(st -> st == busy), "the excess was refused: " + statusById);
        assertTrue(statusById.values().stream().allMatch(st -> st == ok || st == busy), "only answers and refusals: "
                + statusById);
        assertEquals(ok, statusById.get(finalId), "a call after the sleeps ran again: " + statusById);
        assertTrue(refusals.stream().allMatch(r -> r.contains("did not run")), refusals.toString());
    }

    @Test
    void framesTrickledOverManyConnectionsAreCutAtTheFrameTimeout() throws Exception {
        List<Socket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < 30; i++) {
                Socket s = new Socket("127.0.0.1", provider.boundPort());
                sockets.add(s);
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                header(out, 0x03, i + 1, (1 << 20) + 1024);
                out.write(new byte[1024]);
                out.flush();
            }
            await("the trickling connections were accepted", () -> provider.inspect().snapshot().server().connections() == 31);
            AtomicLong cut = new AtomicLong();
            // a byte now and then from each: the idle timer alone would keep them open for ever
            await("every trickling connection is cut", () -> {
                for (Socket s : sockets) {
                    try {
                        s.getOutputStream().write(0);
                    } catch (IOException closed) {
                        cut.incrementAndGet();
                    }
                }
                return provider.inspect().snapshot().server().connections() == 1;
            });
        } finally {
            for (Socket s : sockets) {
                s.close();
            }
        }
        assertTrue(memory.max.get() <= BUDGET / 2 + (2 << 20),
                "partial frames held " + memory.max.get() + " bytes; their share is half the budget");
    }

    @Test
    void aConnectionFloodBeyondTheLimitsIsRefusedAtOnce() throws Exception {
        long refusedBefore = provider.inspect().snapshot().server().refusedConnections();
        List<Socket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < 120; i++) {
                sockets.add(new Socket("127.0.0.1", provider.boundPort()));
            }
            await("the flood beyond the per-host limit was refused",
                    () -> provider.inspect().snapshot().server().refusedConnections() - refusedBefore >= 120 - 49);
            assertTrue(provider.inspect().snapshot().server().connections() <= 50, "open: " + provider.inspect().snapshot().server().connections());
        } finally {
            for (Socket s : sockets) {
                s.close();
            }
        }
    }

    // --- helpers -----------------------------------------------------------------------------

    /** The well-behaved client: calls every few milliseconds and checks every answer. */
    static final class GoodClient {
        final AtomicInteger ok = new AtomicInteger();
        final AtomicInteger failed = new AtomicInteger();
        final AtomicReference<String> firstFailure = new AtomicReference<>();
        private final EchoService service;
        private volatile boolean running = true;
        private final Thread thread = new Thread(this::run, "good-client");

        GoodClient(EchoService service) {
            this.service = service;
            thread.start();
        }

        private void run() {
            for (int i = 0; running; i++) {
                String text = "good-" + i;
                try {
                    String answer = service.echo(text);
                    if (text.equals(answer)) {
                        ok.incrementAndGet();
                    } else {
                        fail("wrong answer " + answer + " to " + text);
                    }
                } catch (RuntimeException e) {
                    fail(e.toString());
                }
                java.util.concurrent.locks.LockSupport.parkNanos(5_000_000); // the client's pace
            }
        }

        private void fail(String why) {
            failed.incrementAndGet();
            firstFailure.compareAndSet(null, why);
        }

        void stop() throws InterruptedException {
            running = false;
            thread.join(10_000);
        }
    }

    /** Samples the provider's budgeted memory every millisecond or so and keeps the largest value. */
    static final class MemorySampler {
        final AtomicLong max = new AtomicLong();
        private volatile boolean running = true;
        private final Thread thread = new Thread(() -> {
            while (running) {
                max.accumulateAndGet(provider.inspect().snapshot().server().memoryInUseBytes(), Math::max);
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
            }
        }, "memory-sampler");

        MemorySampler() {
            thread.start();
        }

        void stop() throws InterruptedException {
            running = false;
            thread.join(10_000);
        }
    }

    interface Attack {
        void run(OutputStream out) throws IOException;
    }

    /** Runs the attack's writes on a thread that ends when the provider closes the connection. */
    static Thread writeUntilClosed(Socket s, Attack attack) {
        Thread t = new Thread(() -> {
            try {
                attack.run(s.getOutputStream());
            } catch (IOException closedByProvider) {
                // the expected end
            }
        }, "attacker");
        t.setDaemon(true);
        t.start();
        return t;
    }

    static byte[] args(String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        kryo.serialize(text, out);
        return out.toByteArray();
    }

    static byte[] sleepArgs(long millis) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        kryo.serialize(millis, out);
        return out.toByteArray();
    }

    static void write(OutputStream out, long id, int ref, String descriptor, byte[] args) throws IOException {
        out.write(RawClient.requestFrame(id, SerializerIds.KRYO, ref, descriptor, 10_000, args));
        out.flush();
    }

    static void header(DataOutputStream out, int flags, long id, int bodyLength) throws IOException {
        out.writeShort(0x4B52);
        out.writeByte(1);
        out.writeByte(flags);
        out.writeByte(SerializerIds.KRYO);
        out.writeByte(0);
        out.writeLong(id);
        out.writeInt(bodyLength);
    }

    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        Await.until(what, Duration.ofSeconds(30), condition);
    }
}
