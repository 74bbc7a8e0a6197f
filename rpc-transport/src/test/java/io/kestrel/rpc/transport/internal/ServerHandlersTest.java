package io.kestrel.rpc.transport.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.TransportCounters;
import io.kestrel.rpc.transport.spi.MethodRef;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The provider's pipeline after the frame decoder (heartbeat, go-away, request handler, response
 * writer) on an {@link EmbeddedChannel}, with a real dispatcher and a direct executor.
 */
class ServerHandlersTest {
    private static final String GREET = MethodRef.descriptor(TestSupport.KEY, TestSupport.GREET);
    private static final String JOIN = MethodRef.descriptor(TestSupport.KEY, TestSupport.JOIN);
    private static final byte UTF8 = TestSupport.UTF8.id();

    private final TestSupport.GreeterDispatcher dispatcher = new TestSupport.GreeterDispatcher();
    private EmbeddedChannel ch;
    private Admission admission;
    private GoAwayHandler goAway;

    private MemoryBudget budget;

    private void start(Executor executor) {
        start(executor, 100, new MemoryBudget(1 << 20), 30_000);
    }

    private void start(Executor executor, int callsPerConnection, MemoryBudget budget, long frameTimeoutMillis) {
        ch = new EmbeddedChannel();
        this.budget = budget;
        TransportCounters counters = new TransportCounters();
        ResponseWriter out = new ResponseWriter(ch, counters, 4096, budget);
        admission = new Admission(executor);
        goAway = new GoAwayHandler(out);
        ch.pipeline().addLast(new FrameDecoder(4096, counters, budget, frameTimeoutMillis),
                HeartbeatHandler.provider(3000, out), goAway,
                new RequestHandler(dispatcher, admission, out, 4096, callsPerConnection, budget));
    }

    @Test
    void oneConnectionRunsAtMostItsShareOfCalls() {
        java.util.List<Runnable> queued = new java.util.ArrayList<>();
        start(queued::add, 2, new MemoryBudget(1 << 20), 30_000);
        List<Frame> early = send(TestSupport.requestFrame(1, UTF8, 0, GREET, "a"),
                TestSupport.requestFrame(2, UTF8, 0, null, "b"), TestSupport.requestFrame(3, UTF8, 0, null, "c"));
        assertEquals(1, early.size(), "two calls are queued, the third refused");
        assertEquals(3, early.get(0).requestId);
        assertEquals(Status.SERVER_BUSY.code(), early.get(0).status);
        assertTrue(message(early.get(0)).contains("calls-per-connection"));
        queued.forEach(Runnable::run);
        ch.runPendingTasks();
        assertEquals(2, TestSupport.frames(TestSupport.drain(ch)).size());
        assertTrue(send(TestSupport.requestFrame(4, UTF8, 0, null, "d")).isEmpty(), "taken: the slots are free again");
        assertEquals(3, queued.size());
        queued.get(2).run();
        ch.runPendingTasks();
        assertEquals(Status.OK.code(), TestSupport.frames(TestSupport.drain(ch)).get(0).status);
        assertEquals(0, budget.used(), "every request's and response's bytes were given back");
    }

    @Test
    void aRequestOverTheMemoryBudgetIsRefusedUnrunAndTheBudgetIsGivenBack() {
        start(Runnable::run, 100, new MemoryBudget(400), 30_000);
        Frame refused = send(TestSupport.requestFrame(1, UTF8, 0, GREET, "x".repeat(1000))).get(0);
        assertEquals(Status.SERVER_BUSY.code(), refused.status);
        String why = message(refused);
        assertTrue(why.contains("memory budget"), why);
        assertEquals(0, dispatcher.invocations);
        assertEquals(0, budget.used());
        Frame ok = send(TestSupport.requestFrame(2, UTF8, 1, GREET, "y")).get(0);
        assertEquals(Status.OK.code(), ok.status);
        assertEquals(0, budget.used());
    }

    @Test
    void aDefiningRequestRefusedUnreadStillDefinesItsMethod() {
        start(Runnable::run, 100, new MemoryBudget(400), 30_000);
        // over the memory budget: refused, its body skipped, but the definition kept
        Frame refused = send(TestSupport.requestFrame(1, UTF8, 5, GREET, "x".repeat(1000))).get(0);
        assertEquals(Status.SERVER_BUSY.code(), refused.status);
        Frame later = send(TestSupport.requestFrame(2, UTF8, 5, null, "y")).get(0);
        assertEquals(Status.OK.code(), later.status, "the method defined by the refused request resolves");
        // over the payload limit: the same
        Frame tooLarge = send(TestSupport.requestFrame(3, UTF8, 6, JOIN, "z".repeat(3000), "w".repeat(3000))).get(0);
        assertEquals(Status.PAYLOAD_TOO_LARGE.code(), tooLarge.status);
        Frame join = send(TestSupport.requestFrame(4, UTF8, 6, null, "a", "b")).get(0);
        assertEquals(Status.OK.code(), join.status);
        assertEquals(ResponseEncoder.RESULT_VALUE, join.body.readByte());
        assertEquals("a+b", text(join));
        assertEquals(0, budget.used());
    }

    @Test
    void aPartialFrameHoldsTheBudgetUntilItsConnectionCloses() {
        start(Runnable::run, 100, new MemoryBudget(1 << 20), 30_000);
        ByteBuf frame = TestSupport.requestFrame(1, UTF8, 0, GREET, "z".repeat(500));
        ch.writeInbound(frame.readRetainedSlice(100));
        assertTrue(budget.used() > 500, "the whole body is reserved from its header on");
        ch.close();
        frame.release();
        assertEquals(0, budget.used());
    }

    @Test
    void aFrameTrickledSlowerThanTheFrameTimeoutClosesItsConnection() throws Exception {
        start(Runnable::run, 100, new MemoryBudget(1 << 20), 100);
        ByteBuf frame = TestSupport.requestFrame(1, UTF8, 0, GREET, "slow".repeat(1000));
        ch.writeInbound(frame.readRetainedSlice(20));
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (ch.isOpen() && System.nanoTime() < deadline && frame.isReadable()) {
            ch.writeInbound(frame.readRetainedSlice(1)); // a byte now and then keeps no idle timer from firing
            ch.runScheduledPendingTasks();
            java.util.concurrent.locks.LockSupport.parkNanos(5_000_000); // the trickle's pace, not a wait for an event
        }
        frame.release();
        assertFalse(ch.isOpen(), "the connection trickling a frame was not closed");
        assertEquals(0, budget.used());
    }

    @AfterEach
    void stop() {
        ch.finishAndReleaseAll();
    }

    private List<Frame> send(ByteBuf... frames) {
        for (ByteBuf f : frames) {
            ch.writeInbound(f);
        }
        ch.runPendingTasks();
        return TestSupport.frames(TestSupport.drain(ch));
    }

    private static String text(Frame f) {
        return f.body.toString(StandardCharsets.UTF_8);
    }

    private static String message(Frame f) {
        return Wire.readString(f.body);
    }

    @Test
    void aCallRunsAndIsAnsweredWithItsIdAndSerialization() {
        start(Runnable::run);
        List<Frame> answers = send(TestSupport.requestFrame(5, UTF8, 0, GREET, "Ada"));
        assertEquals(1, answers.size());
        Frame f = answers.get(0);
        assertEquals(5, f.requestId);
        assertEquals(UTF8, f.serializationId);
        assertEquals(Status.OK.code(), f.status);
        assertEquals(ResponseEncoder.RESULT_VALUE, f.body.readByte());
        assertEquals("hello Ada", text(f));
        assertEquals(1, dispatcher.invocations);
        assertEquals(0, admission.inFlight());
    }

    @Test
    void aMethodAndItsSerializerAreResolvedOncePerReference() {
        start(Runnable::run);
        List<Frame> answers = send(TestSupport.requestFrame(1, UTF8, 3, GREET, "a"),
                TestSupport.requestFrame(2, UTF8, 3, null, "b"), TestSupport.requestFrame(3, UTF8, 3, null, "c"));
        assertEquals(3, answers.size());
        assertEquals(3, dispatcher.invocations);
        assertEquals(1, dispatcher.serializerLookups, "the serializer is bound to the reference, not looked up per call");
    }

    @Test
    void aServiceExceptionTravelsWithTypeMessageAndBody() {
        start(Runnable::run);
        Frame f = send(TestSupport.requestFrame(9, UTF8, 0, GREET, "boom")).get(0);
        assertEquals(Status.SERVICE_ERROR.code(), f.status);
        assertEquals(IllegalStateException.class.getName(), Wire.readString(f.body));
        assertEquals("boom from greet", Wire.readString(f.body));
        assertEquals("!boom from greet", text(f));
    }

    @Test
    void badReferencesAndUnknownMethodsAreAnsweredNotClosed() {
        start(Runnable::run);
        String missing = GREET.replace("greet", "shout");
        List<Frame> answers = send(TestSupport.requestFrame(1, UTF8, 7, null, "x"),
                TestSupport.requestFrame(2, UTF8, 1, missing, "x"), TestSupport.requestFrame(3, UTF8, 1, null, "x"),
                TestSupport.requestFrame(4, (byte) 9, 0, GREET, "x"));
        assertEquals(Status.BAD_REQUEST.code(), answers.get(0).status);
        assertTrue(message(answers.get(0)).contains("unknown method reference 7"));
        assertEquals(Status.SERVICE_NOT_FOUND.code(), answers.get(1).status);
        assertTrue(message(answers.get(1)).contains("shout"), "the definition's answer names it");
        assertEquals(Status.SERVICE_NOT_FOUND.code(), answers.get(2).status);
        assertTrue(message(answers.get(2)).contains("see the answer to its definition"));
        assertEquals(Status.BAD_REQUEST.code(), answers.get(3).status);
        assertTrue(message(answers.get(3)).contains("serialization id 9"));
        assertEquals(0, dispatcher.invocations);
        assertTrue(ch.isOpen());
    }

    @Test
    void anOversizedRequestIsRefusedFromItsHeaderAlone() {
        start(Runnable::run);
        ByteBuf header = Unpooled.buffer();
        Wire.writeHeader(header, (byte) (Wire.FLAG_REQUEST | Wire.FLAG_TWO_WAY), UTF8, (byte) 0, 11, 1 << 20);
        Frame f = send(header).get(0);
        assertEquals(Status.PAYLOAD_TOO_LARGE.code(), f.status);
        assertEquals(11, f.requestId);
        assertTrue(message(f).contains("1048576 bytes exceeds the provider's payload limit of 4096"));
    }

    @Test
    void aClosingOrFullServerAnswersBusyAndRunsNothing() {
        Executor full = r -> {
            throw new RejectedExecutionException("full");
        };
        start(full);
        Frame busy = send(TestSupport.requestFrame(1, UTF8, 0, GREET, "a")).get(0);
        assertEquals(Status.SERVER_BUSY.code(), busy.status);
        assertTrue(message(busy).contains("the call did not run"));
        assertEquals(0, admission.inFlight());
        stop();

        start(Runnable::run);
        admission.startClosing();
        Frame closing = send(TestSupport.requestFrame(2, UTF8, 0, GREET, "a")).get(0);
        assertEquals(Status.SERVER_BUSY.code(), closing.status);
        assertTrue(message(closing).contains("shutting down"));
        assertEquals(0, dispatcher.invocations);
    }

    @Test
    void aHeartbeatIsAnsweredBehindTheResponsesBeforeIt() {
        start(Runnable::run);
        ByteBuf ping = Unpooled.buffer();
        Wire.writeHeader(ping, (byte) (Wire.FLAG_REQUEST | Wire.FLAG_TWO_WAY | Wire.FLAG_EVENT), (byte) 0, (byte) 0, 99, 0);
        List<Frame> answers = send(TestSupport.requestFrame(1, UTF8, 0, GREET, "a"), ping);
        assertEquals(2, answers.size());
        assertEquals(1, answers.get(0).requestId, "the call's answer first");
        assertEquals(99, answers.get(1).requestId);
        assertTrue(answers.get(1).isEvent());
    }

    @Test
    void goAwayIsSentOnceAndTheConsumersAnswerMeansDrained() {
        start(Runnable::run);
        goAway.goAway();
        goAway.goAway();
        ch.runPendingTasks();
        List<Frame> notices = TestSupport.frames(TestSupport.drain(ch));
        assertEquals(1, notices.size());
        assertTrue(notices.get(0).isEvent());
        assertEquals(Status.GOING_AWAY.code(), notices.get(0).status);
        assertFalse(goAway.drained());
        ByteBuf ack = Unpooled.buffer();
        Wire.writeHeader(ack, (byte) (Wire.FLAG_REQUEST | Wire.FLAG_EVENT), (byte) 0, Status.GOING_AWAY.code(), 0, 0);
        send(ack);
        assertTrue(goAway.drained());
    }
}
