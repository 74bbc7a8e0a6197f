package io.kestrel.rpc.transport.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.transport.TransportCounters;
import io.kestrel.rpc.testing.Await;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A consumer's frame decoder: responses held within the memory budget, and a frame timeout. */
class ConsumerFrameDecoderTest {
    private static ByteBuf responseHeader(long id, int bodyLength) {
        ByteBuf b = Unpooled.buffer();
        Wire.writeHeader(b, (byte) 0, (byte) 8, (byte) 20, id, bodyLength);
        return b;
    }

    @Test
    void aResponseArrivingInPartsHoldsTheBudgetUntilItsFrameIsDone() {
        MemoryBudget budget = new MemoryBudget(1000);
        EmbeddedChannel ch = new EmbeddedChannel(FrameDecoder.consumer(1000, new TransportCounters(), budget, 0));
        ch.writeInbound(responseHeader(1, 300));
        assertEquals(300, budget.used(), "taken from the header, before the body exists");
        ch.writeInbound(Unpooled.wrappedBuffer(new byte[300]));
        Frame f = ch.readInbound();
        assertEquals(300, f.body.readableBytes());
        assertEquals(300, budget.used(), "held while the frame waits to be decoded");
        f.release();
        f.done();
        assertEquals(0, budget.used());
        assertFalse(ch.finish());
    }

    @Test
    void anEventWithABodyGivesItsBudgetBackAtOnce() {
        MemoryBudget budget = new MemoryBudget(1000);
        EmbeddedChannel ch = new EmbeddedChannel(FrameDecoder.consumer(1000, new TransportCounters(), budget, 0));
        ByteBuf answer = Unpooled.buffer();
        Wire.writeHeader(answer, Wire.FLAG_EVENT, (byte) 0, (byte) 20, 1, 100); // a handshake answer
        answer.writeBytes(new byte[100]);
        ch.writeInbound(answer);
        Frame f = ch.readInbound();
        assertEquals(100, f.body.readableBytes());
        f.release(); // as the heartbeat handler does: no done() for events
        assertEquals(0, budget.used(), "an event's budget leaked");
        assertFalse(ch.finish());
    }

    @Test
    void aResponseArrivingInPartsBeyondHalfTheBudgetIsSkippedAsItArrives() {
        MemoryBudget budget = new MemoryBudget(1000);
        EmbeddedChannel ch = new EmbeddedChannel(FrameDecoder.consumer(1000, new TransportCounters(), budget, 0));
        ch.writeInbound(responseHeader(7, 600)); // more than the 500 bytes frames still arriving may hold
        Frame f = ch.readInbound();
        assertTrue(f.overBudget && f.oversized(), "passed on header-only, so its call fails at once");
        assertEquals(7, f.requestId);
        ch.writeInbound(Unpooled.wrappedBuffer(new byte[600]));
        assertNull(ch.readInbound(), "its body is skipped, never buffered");
        assertEquals(0, budget.used());
        ch.finishAndReleaseAll();
    }

    @Test
    void aFrameIncompletePastTheFrameTimeoutFiresAFrameTimeoutAndClosesTheConnection() throws Exception {
        AtomicReference<Throwable> caught = new AtomicReference<>();
        MemoryBudget budget = new MemoryBudget(1 << 20);
        EmbeddedChannel ch = new EmbeddedChannel(FrameDecoder.consumer(1 << 20, new TransportCounters(), budget, 50),
                new ChannelInboundHandlerAdapter() {
                    @Override
                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                        caught.set(cause);
                    }
                });
        ch.writeInbound(responseHeader(1, 1000));
        ch.writeInbound(Unpooled.wrappedBuffer(new byte[10]));
        Await.until("the frame timeout closing the connection", Duration.ofSeconds(5), () -> {
            ch.runPendingTasks(); // the embedded channel runs its scheduled frame timeout only when asked
            return !ch.isOpen();
        });
        FrameTimeoutException e = assertInstanceOf(FrameTimeoutException.class, caught.get());
        assertTrue(e.getMessage().contains("still incomplete (frame timeout 50 ms"), e.getMessage());
        assertEquals(0, budget.used(), "the budget of the unfinished frame is given back");
        ch.finishAndReleaseAll();
    }
}
