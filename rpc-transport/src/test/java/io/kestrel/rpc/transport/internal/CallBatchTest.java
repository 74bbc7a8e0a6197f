package io.kestrel.rpc.transport.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.testing.Await;
import io.kestrel.rpc.transport.Connection;
import io.kestrel.rpc.transport.Status;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The provider's batch hand-off ({@link CallBatch}) over real sockets: calls sent back to back on one connection
 * (one read burst, one batch) each get their own answer or failure, and a call that blocks holds neither the other
 * connections' calls nor, beyond the stall delay, the calls behind it in its own batch.
 */
@Timeout(60)
class CallBatchTest {
    private final LoopbackGreeter greeter = new LoopbackGreeter();

    @AfterEach
    void close() {
        greeter.close();
    }

    @Test
    void callsOfOneBurstEachGetTheirOwnAnswerOrFailure() throws Exception {
        Connection c = greeter.connection();
        for (int round = 0; round < 20; round++) {
            List<CompletableFuture<Object>> sent = new ArrayList<>();
            for (int i = 0; i < 12; i++) { // written back to back: coalesced into one flush, read as one burst
                sent.add(greeter.greet(c, (i % 4 == 1 ? "boom-" : "n-") + round + "-" + i, 5000, null));
            }
            for (int i = 0; i < sent.size(); i++) {
                String name = (i % 4 == 1 ? "boom-" : "n-") + round + "-" + i;
                if (i % 4 == 1) {
                    CompletableFuture<Object> failing = sent.get(i);
                    ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                            () -> failing.get(10, TimeUnit.SECONDS));
                    assertTrue(e.getCause().getMessage().contains("boom for " + name), e.getCause().toString());
                } else {
                    assertEquals("hello " + name, sent.get(i).get(10, TimeUnit.SECONDS));
                }
            }
        }
        Await.until("every call ended on the provider", Duration.ofSeconds(5), () -> greeter.server.inFlight() == 0);
        assertEquals(0, c.pendingCalls());
    }

    @Test
    void aBlockedCallHoldsNeitherOtherConnectionsNorTheCallsBehindItInItsBatch() throws Exception {
        Connection c = greeter.connection();
        Connection other = greeter.otherConnection();
        try (Socket raw = new Socket("127.0.0.1", greeter.server.port())) {
            raw.setSoTimeout(10_000);
            // one write: a call that blocks, then quick ones, all read in one burst and handed over as one batch
            ByteBuf burst = Unpooled.buffer();
            burst.writeBytes(frameBytes(TestSupport.requestFrame(1, (byte) 78, 0,
                    LoopbackGreeter.GREET.descriptor(), "block-1")));
            for (int i = 2; i <= 7; i++) {
                burst.writeBytes(frameBytes(TestSupport.requestFrame(i, (byte) 78, 0, null, "quick-" + i)));
            }
            byte[] bytes = new byte[burst.readableBytes()];
            burst.readBytes(bytes);
            burst.release();
            OutputStream out = raw.getOutputStream();
            out.write(bytes);
            out.flush();
            // the quick calls behind the blocked one are answered while it still blocks (spread after the stall delay)
            List<Long> answered = readAnswers(raw.getInputStream(), 6);
            assertEquals(List.of(2L, 3L, 4L, 5L, 6L, 7L), answered.stream().sorted().toList());
            // another connection's calls are served meanwhile
            for (int i = 0; i < 20; i++) {
                assertEquals("hello o-" + i, greeter.greet(other, "o-" + i, 5000, null).get(10, TimeUnit.SECONDS));
                assertEquals("hello s-" + i, greeter.greet(c, "s-" + i, 5000, null).get(10, TimeUnit.SECONDS));
            }
            // the provider counts a call ended just after its answer is queued: the last answers can arrive first
            Await.until("only the blocked call in flight", Duration.ofSeconds(5), () -> greeter.server.inFlight() == 1);
            greeter.unblock.countDown();
            assertEquals(List.of(1L), readAnswers(raw.getInputStream(), 1));
        }
        Await.until("every call ended on the provider", Duration.ofSeconds(5), () -> greeter.server.inFlight() == 0);
    }

    /**
     * Run twice by the build: as is, a call read while its connection's batch runs gets a worker of its own; in the
     * execution with {@code -Dkestrel.rpc.provider.batchJoin=true} (and a long stall delay) it joins that batch and
     * runs on its worker after the call before it, its answer flushed with that one's.
     */
    @Test
    void aCallReadWhileItsConnectionsBatchRunsJoinsItOnlyWithJoinOn() throws Exception {
        Connection c = greeter.connection();
        CompletableFuture<Object> first = greeter.greet(c, "sleep:150:first", 5000, null);
        Await.until("the first call runs", Duration.ofSeconds(5), () -> greeter.ranOn.containsKey("sleep:150:first"));
        CompletableFuture<Object> second = greeter.greet(c, "second", 5000, null);
        assertEquals("hello second", second.get(10, TimeUnit.SECONDS));
        boolean answeredAfterFirst = first.isDone();
        assertEquals("hello sleep:150:first", first.get(10, TimeUnit.SECONDS));
        boolean sameThread = greeter.ranOn.get("sleep:150:first").equals(greeter.ranOn.get("second"));
        assertEquals(CallBatch.JOIN, sameThread, "the second call ran on " + greeter.ranOn);
        assertEquals(CallBatch.JOIN, answeredAfterFirst, "with join the second answer waits for the first");
        Await.until("every call ended on the provider", Duration.ofSeconds(5), () -> greeter.server.inFlight() == 0);
    }

    private static byte[] frameBytes(ByteBuf frame) {
        byte[] b = new byte[frame.readableBytes()];
        frame.readBytes(b);
        frame.release();
        return b;
    }

    /** Reads response frames until {@code n} of them came (heartbeats skipped); their request ids. */
    private static List<Long> readAnswers(InputStream in, int n) throws Exception {
        List<Long> ids = new ArrayList<>();
        while (ids.size() < n) {
            byte[] header = in.readNBytes(Wire.HEADER_BYTES);
            assertEquals(Wire.HEADER_BYTES, header.length, "the provider closed the connection");
            ByteBuf h = Unpooled.wrappedBuffer(header);
            int flags = h.getByte(3);
            long id = h.getLong(6);
            int length = h.getInt(14);
            in.readNBytes(length);
            if ((flags & Wire.FLAG_EVENT) == 0) {
                assertEquals(Status.OK.code(), h.getByte(5), "answer " + id + " is OK");
                ids.add(id);
            }
        }
        return ids;
    }

    @Test
    void theStallDelaySettingIsReadWithItsDefaultAndBadValuesFallBackToIt() {
        assertEquals(CallBatch.DEFAULT_STALL_MICROS, CallBatch.stallMicros(null));
        assertEquals(250, CallBatch.stallMicros(" 250 "));
        assertEquals(CallBatch.DEFAULT_STALL_MICROS, CallBatch.stallMicros("0"));
        assertEquals(CallBatch.DEFAULT_STALL_MICROS, CallBatch.stallMicros("soon"));
    }
}
