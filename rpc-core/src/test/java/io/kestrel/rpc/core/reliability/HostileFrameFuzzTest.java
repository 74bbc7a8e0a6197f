package io.kestrel.rpc.core.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.TestRuntimes;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.core.fixture.Payload;
import io.kestrel.rpc.testing.Await;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetric;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A seeded fuzzer (fixed seed, a fixed count of frames, no time budget: how fast it runs is not a
 * unit-test question) throws 100,000 malformed, truncated, oversized and random frames at a live
 * server over raw sockets, while a well-behaved consumer on
 * its own connection keeps calling and checking every answer. The server must stay up, keep the
 * good consumer served, and never hold more buffer memory than a small multiple of its payload limit.
 */
class HostileFrameFuzzTest {
    static final long SEED = 0x4B52_F0CC_2026L;
    static final int FRAMES = 100_000;
    static final int PAYLOAD_LIMIT = 64 * 1024;
    /** Buffer memory (Netty allocator, direct + heap) the run may use at any sampled moment. */
    static final long BUFFER_BOUND = 64L << 20;
    /** Heap still reachable after the run (and a GC) beyond the baseline: nothing may pile up. */
    static final long RETAINED_BOUND = 64L << 20;
    /**
     * JVM heap in use at any sampled moment (garbage included). A healthy run peaks at a few hundred
     * MiB here; one frame that makes a decoder allocate what its length fields claim shows as GiBs.
     */
    static final long HEAP_PEAK_BOUND = 1L << 30;
    static final String ECHO = EchoService.class.getName();

    RpcRuntime provider;
    RpcRuntime consumer;
    EchoService good;

    @BeforeEach
    void start() {
        provider = TestRuntimes.echoProvider(TestRuntimes.loopback().payloadBytes(PAYLOAD_LIMIT).build());
        consumer = RpcRuntime.builder().build();
        good = consumer.refer(TestRuntimes.echoReference(provider, "kryo").build());
    }

    @AfterEach
    void stop() {
        consumer.close();
        provider.close();
    }

    @Test
    void serverSurvivesHostileFramesAndKeepsServingAGoodClient() throws Exception {
        assertEquals("warm", good.echo("warm"));
        HostileFrames frames = generator();
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long baselineHeap = heapAfterGc(memory);

        Sampler sampler = new Sampler(memory);
        GoodClient client = new GoodClient(good);
        sampler.start();
        client.start();

        FuzzPeer.Stats stats = new FuzzPeer.Stats();
        Map<HostileFrames.Kind, Long> kinds = new EnumMap<>(HostileFrames.Kind.class);
        long sent = 0;
        long bytesSent = 0;
        int connections = 1;
        long writeFailures = 0;
        long syncTimeouts = 0;
        long startNanos = System.nanoTime();
        FrameBytes buf = new FrameBytes();
        FuzzPeer peer = new FuzzPeer(provider.boundPort(), stats, 0);
        try {
            while (sent < FRAMES) {
                HostileFrames.Kind kind = frames.next(buf.reset());
                kinds.merge(kind, 1L, Long::sum);
                sent++;
                bytesSent += buf.size();
                boolean breaks = kind.after == HostileFrames.After.CLOSE;
                try {
                    if (breaks || sent % 2000 == 0) {
                        // let the server catch up: everything sent so far is decoded before we go on or break it
                        if (!peer.sync(10_000)) {
                            syncTimeouts++;
                        }
                    }
                    if (breaks) {
                        peer.ending();
                    }
                    peer.write(buf.array(), buf.size());
                    if (breaks || sent % 32 == 0) {
                        peer.flush();
                    }
                } catch (IOException e) {
                    writeFailures++; // the server closed this connection under us: counted below as unexpected
                    breaks = true;
                }
                if (breaks) {
                    peer.close();
                    peer = new FuzzPeer(provider.boundPort(), stats, connections++);
                }
            }
            peer.flush();
        } finally {
            peer.close();
        }
        long fuzzMs = elapsedMs(startNanos);
        // the good client keeps going a little after the last frame: the server must still answer
        long okAtFuzzEnd = client.ok.get();
        await("the good client is answered after the fuzz", () -> client.ok.get() >= okAtFuzzEnd + 50, 10_000);
        client.stop();
        sampler.stop();

        await("the fuzz connections closed and nothing in flight",
                () -> provider.inspect().snapshot().server().connections() <= 1 && provider.inspect().snapshot().server().inFlightCalls() == 0, 10_000);
        long retained = heapAfterGc(memory) - baselineHeap;

        System.out.printf("fuzz: seed 0x%X, %d frames (%d bytes) in %d ms on %d connections; %d responses (%d bytes),"
                        + " by status %s; %d write failures, %d sync timeouts, %d unexpected closes (last: %s), %d malformed responses%n",
                SEED, sent, bytesSent, fuzzMs, connections, stats.responses.get(), stats.responseBytes.get(),
                statuses(stats), writeFailures, syncTimeouts, stats.unexpectedCloses.get(), stats.lastUnexpected,
                stats.malformedResponses.get());
        System.out.printf("fuzz: frame kinds %s%n", kinds);
        System.out.printf("fuzz: good client %d correct, %d wrong, %d failed (first: %s), longest gap between correct"
                        + " answers %d ms%n", client.ok.get(), client.wrong.get(), client.failed.get(), client.firstFailure,
                client.maxGapMs());
        System.out.printf("fuzz: buffer memory peak %d KiB (bound %d KiB), heap peak %d MiB, retained after GC %d KiB,"
                        + " server connections %d, in flight %d%n", sampler.maxBuffers / 1024, BUFFER_BOUND / 1024,
                sampler.maxHeap >> 20, retained / 1024, provider.inspect().snapshot().server().connections(), provider.inspect().snapshot().server().inFlightCalls());

        assertEquals(FRAMES, sent);
        for (HostileFrames.Kind kind : HostileFrames.Kind.values()) {
            assertTrue(kinds.getOrDefault(kind, 0L) > 0, "the generator never produced a " + kind + " frame: " + kinds);
        }
        assertEquals(0, client.wrong.get(), "the good client got wrong answers");
        assertEquals(0, client.failed.get(), "the good client's calls failed: " + client.firstFailure);
        assertTrue(okAtFuzzEnd >= 500, "the good client got only " + okAtFuzzEnd + " answers during the fuzz");
        // no call of the good client failed, and each has a 5 s timeout: none waited longer than that for an answer
        assertEquals(0, stats.malformedResponses.get(), "the server wrote a response that is not a frame");
        assertEquals(0, stats.unexpectedCloses.get() + writeFailures,
                "the server closed connections that had sent only well-framed data: " + stats.lastUnexpected);
        assertEquals(0, syncTimeouts, "the server did not answer a heartbeat within 10 s");
        assertTrue(stats.responses.get() > sent / 4, "too few responses: " + stats.responses.get());
        assertTrue(sampler.maxBuffers < BUFFER_BOUND, "buffer memory reached " + sampler.maxBuffers + " bytes");
        assertTrue(sampler.maxHeap < HEAP_PEAK_BOUND, "heap use reached " + (sampler.maxHeap >> 20) + " MiB");
        assertTrue(retained < RETAINED_BOUND, "the run left " + retained + " bytes of heap reachable");
        assertEquals("still here", good.echo("still here"));
        assertEquals(1, provider.inspect().snapshot().server().connections(), "only the good client's connection should remain");
    }

    /**
     * A connection may define up to {@code Wire.MAX_METHOD_REFS} method references, each with a
     * descriptor as long as the payload limit. Whatever the server keeps per reference must not be
     * proportional to the descriptor, or one connection pins refs x payload bytes of heap (4096 x
     * 8 MiB with the default limit).
     */
    @Test
    void longMethodDescriptorsDoNotPinHeapPerConnection() throws Exception {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        int refs = 1024;
        String descriptor = "com.example." + "x".repeat(60_000) + "#run()";
        FuzzPeer.Stats stats = new FuzzPeer.Stats();
        FrameBytes buf = new FrameBytes();
        long baseline = heapAfterGc(memory);
        long pinned;
        try (FuzzPeer peer = new FuzzPeer(provider.boundPort(), stats, 0)) {
            for (int ref = 0; ref < refs; ref++) {
                int start = buf.reset().size();
                buf.header(1, 0x0B, 8, 0, ref, 0).varint(ref).string(descriptor).varint(1000).varint(0);
                peer.write(buf.finishFrame(start).array(), buf.size());
            }
            assertTrue(peer.sync(20_000), "no heartbeat answer");
            await("every definition answered", () -> stats.responses.get() >= refs + 1, 10_000);
            pinned = heapAfterGc(memory) - baseline;
        }
        await("the peer's connection closed", () -> provider.inspect().snapshot().server().connections() <= 1, 10_000);
        long afterClose = heapAfterGc(memory) - baseline;
        System.out.printf("long descriptors: %d refs x %d chars: %d KiB of heap held while the connection is open,"
                + " %d KiB after it closed; %d responses%n", refs, descriptor.length(), pinned / 1024, afterClose / 1024,
                stats.responses.get());
        assertEquals(refs + 1, stats.responses.get(), "every definition is answered (service not found), plus the ping");
        assertTrue(pinned < 16L << 20, "one connection pins " + (pinned >> 20) + " MiB of heap with " + refs
                + " unresolvable method definitions of " + descriptor.length() + " chars: the per-reference state holds"
                + " the descriptor text");
        assertEquals("ok", good.echo("ok"));
    }

    private static HostileFrames generator() {
        List<String> descriptors = List.of(ECHO + "#echo(java.lang.String)", ECHO + "#echoObject(java.lang.Object)",
                ECHO + "#echoPayload(" + Payload.class.getName() + ")", ECHO + "#add(long,int,java.lang.String)",
                ECHO + "#divide(int,int)", ECHO + "#attachment(java.lang.String)", ECHO + "#nothing()",
                ECHO + "#echoAsync(java.lang.String)", ECHO + "#failWithSecret(java.lang.String)");
        List<Object> samples = List.of("hello", "", 42L, 7, Payload.sample(3), List.of("a", "b"), Map.of("k", 1),
                new byte[] {1, 2, 3}, new int[] {1, 2});
        List<byte[]> valid = new ArrayList<>();
        java.util.Set<Byte> idSet = new java.util.LinkedHashSet<>();
        for (String entry : TestRuntimes.SERIALIZATIONS) {
            Serializer s = TestRuntimes.serializer(entry, ClassAllowlist.withDefaults().trustTypesOf(EchoService.class));
            idSet.add(s.id()); // fory's two modes share id 28: both kinds of bytes are valid samples
            for (Object sample : samples) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                s.serialize(sample, out);
                valid.add(out.toByteArray());
            }
        }
        byte[] ids = new byte[idSet.size()];
        int i = 0;
        for (byte id : idSet) {
            ids[i++] = id;
        }
        return new HostileFrames(SEED, PAYLOAD_LIMIT, ids, descriptors, valid);
    }

    private static String statuses(FuzzPeer.Stats stats) {
        StringBuilder sb = new StringBuilder("{");
        for (int s = 0; s < 256; s++) {
            long n = stats.byStatus.get(s);
            if (n > 0) {
                sb.append(sb.length() > 1 ? ", " : "").append(s).append('=').append(n);
            }
        }
        return sb.append('}').toString();
    }

    static long elapsedMs(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    static long heapAfterGc(MemoryMXBean memory) throws InterruptedException {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50); // let reference processing settle; the smallest reading counts
            best = Math.min(best, memory.getHeapMemoryUsage().getUsed());
        }
        return best;
    }

    static void await(String what, BooleanSupplier condition, long timeoutMs) throws InterruptedException {
        Await.until(what, java.time.Duration.ofMillis(timeoutMs), condition);
    }

    /** Samples buffer memory of Netty's default allocator and the heap every few milliseconds. */
    static final class Sampler {
        private final MemoryMXBean memory;
        private final Thread thread;
        private volatile boolean running = true;
        volatile long maxBuffers;
        volatile long maxHeap;

        Sampler(MemoryMXBean memory) {
            this.memory = memory;
            this.thread = new Thread(this::run, "fuzz-memory-sampler");
            thread.setDaemon(true);
        }

        void start() {
            thread.start();
        }

        private void run() {
            while (running) {
                maxBuffers = Math.max(maxBuffers, usedBufferMemory());
                maxHeap = Math.max(maxHeap, memory.getHeapMemoryUsage().getUsed());
                try {
                    Thread.sleep(5); // the sampling period, not a wait for a condition
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        void stop() throws InterruptedException {
            running = false;
            thread.join(2000);
        }

        static long usedBufferMemory() {
            long used = used(ByteBufAllocator.DEFAULT);
            if (ByteBufAllocator.DEFAULT != PooledByteBufAllocator.DEFAULT) {
                used += used(PooledByteBufAllocator.DEFAULT);
            }
            return used;
        }

        private static long used(ByteBufAllocator allocator) {
            if (allocator instanceof ByteBufAllocatorMetricProvider p) {
                ByteBufAllocatorMetric m = p.metric();
                return Math.max(0, m.usedDirectMemory()) + Math.max(0, m.usedHeapMemory());
            }
            return 0;
        }
    }

    /** The well-behaved consumer: calls in a loop and checks every answer. */
    static final class GoodClient {
        final AtomicLong ok = new AtomicLong();
        final AtomicLong wrong = new AtomicLong();
        final AtomicLong failed = new AtomicLong();
        volatile String firstFailure = "none";
        private final EchoService service;
        private final Thread thread;
        private volatile boolean running = true;
        private volatile long lastOkNanos = System.nanoTime();
        private volatile long maxGapNanos;

        GoodClient(EchoService service) {
            this.service = service;
            this.thread = new Thread(this::run, "fuzz-good-client");
            thread.setDaemon(true);
        }

        void start() {
            thread.start();
        }

        private void run() {
            long i = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (running && System.nanoTime() < deadline) {
                i++;
                try {
                    boolean right = i % 4 == 0 ? service.add(i, 3, "4") == i + 7
                            : ("good-" + i).equals(service.echo("good-" + i));
                    if (right) {
                        long now = System.nanoTime();
                        maxGapNanos = Math.max(maxGapNanos, now - lastOkNanos);
                        lastOkNanos = now;
                        ok.incrementAndGet();
                    } else {
                        wrong.incrementAndGet();
                    }
                    LockSupport.parkNanos(500_000); // a steady caller, not a second load generator
                } catch (RuntimeException e) {
                    if (failed.getAndIncrement() == 0) {
                        firstFailure = e.toString();
                    }
                }
            }
        }

        long maxGapMs() {
            return Math.max(maxGapNanos, running ? System.nanoTime() - lastOkNanos : 0) / 1_000_000;
        }

        void stop() throws InterruptedException {
            running = false;
            thread.join(10_000);
        }
    }
}
