package io.kestrel.rpc.transport.internal.dubbo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.transport.TransportCounters;
import io.kestrel.rpc.transport.internal.MemoryBudget;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

/** The dubbo decoder holds requests to the same budget as the native one: from the header on, not from the end. */
class DubboFrameDecoderTest {
    private static final int REQUEST_TWO_WAY_HESSIAN2 = 0x80 | 0x40 | 2;
    private final MemoryBudget budget = new MemoryBudget(1 << 20);

    private EmbeddedChannel channel() {
        return new EmbeddedChannel(new DubboFrameDecoder(1 << 20, new TransportCounters(), budget, 30_000, null));
    }

    private static ByteBuf header(long id, int bodyLength) {
        ByteBuf b = Unpooled.buffer(DubboWire.HEADER_BYTES);
        DubboWire.writeHeader(b, (byte) REQUEST_TWO_WAY_HESSIAN2, (byte) 0, id);
        b.setInt(12, bodyLength);
        return b;
    }

    @Test
    void aRequestBodyIsTakenFromTheBudgetWhenItsHeaderArrivesAndGivenBackWhenTheConnectionCloses() {
        EmbeddedChannel ch = channel();
        ch.writeInbound(header(1, 100_000), Unpooled.wrappedBuffer(new byte[10]));
        assertNull(ch.readInbound(), "the body has not arrived");
        assertEquals(100_000, budget.used(), "the whole body is reserved from its header on");
        ch.close();
        assertEquals(0, budget.used());
    }

    @Test
    void aCompleteRequestHoldsItsReservationUntilItsCallIsDone() {
        EmbeddedChannel ch = channel();
        ch.writeInbound(header(2, 1000));
        ch.writeInbound(Unpooled.wrappedBuffer(new byte[1000]));
        DubboFrame f = ch.readInbound();
        assertEquals(1000, f.reserved);
        assertEquals(1000, budget.used());
        f.release();
        budget.release(f.reserved); // as DubboRequestHandler does when the call is done
        assertEquals(0, budget.used());
        ch.finishAndReleaseAll();
    }

    @Test
    void aBodyBeyondTheShareForArrivingRequestsIsSkippedAsItArrivesAndTheRequestRefused() {
        EmbeddedChannel ch = channel();
        ch.writeInbound(header(3, 600_000), Unpooled.wrappedBuffer(new byte[4096])); // half of 1 MiB is the share
        DubboFrame f = ch.readInbound();
        assertNull(f.body);
        assertEquals(DubboWire.STATUS_SERVER_BUSY, f.skippedStatus);
        assertTrue(f.skippedBecause.contains("memory budget") && f.skippedBecause.contains("did not run"),
                f.skippedBecause);
        assertEquals(0, budget.used(), "nothing is held for a body that is skipped");
        ch.writeInbound(Unpooled.wrappedBuffer(new byte[600_000 - 4096]), header(4, 0));
        DubboFrame next = ch.readInbound();
        assertEquals(4, next.requestId, "the stream goes on after the skipped body");
        next.release();
        ch.finishAndReleaseAll();
    }
}
