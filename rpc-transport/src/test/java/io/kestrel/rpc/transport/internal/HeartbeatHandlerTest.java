package io.kestrel.rpc.transport.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.transport.Status;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.timeout.IdleStateEvent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The heartbeat handler on both sides, on an {@link EmbeddedChannel}. */
class HeartbeatHandlerTest {
    private final List<Object> passed = new ArrayList<>();

    private EmbeddedChannel channel(boolean consumer) {
        return new EmbeddedChannel(consumer ? HeartbeatHandler.consumer(3000) : HeartbeatHandler.provider(3000, null), new ChannelInboundHandlerAdapter() {
            @Override
            public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                passed.add(evt);
            }

            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                passed.add(msg);
            }
        });
    }

    private static Frame event(byte flags, Status status, long id) {
        return new Frame((byte) (flags | Wire.FLAG_EVENT), (byte) 0, status.code(), id, 0, Unpooled.EMPTY_BUFFER);
    }

    @Test
    void aConsumerSendsItsHandshakeHeartbeatAtOnce() {
        EmbeddedChannel ch = channel(true);
        List<Frame> sent = TestSupport.frames(TestSupport.drain(ch));
        assertEquals(1, sent.size());
        Frame ping = sent.get(0);
        assertTrue(ping.isEvent() && ping.isRequest() && ping.isTwoWay());
        ch.writeInbound(event((byte) 0, Status.OK, ping.requestId));
        assertEquals(List.of(new Handshake.Facts(java.util.Map.of(), java.util.Set.of(), true), HeartbeatHandler.Event.PEER_ANSWERED), passed,
                "the answer is the handshake (an answer without body: the provider said nothing)");
        ch.finishAndReleaseAll();
    }

    @Test
    void aProviderAnswersEveryHeartbeatWithItsId() {
        EmbeddedChannel ch = channel(false);
        assertEquals(0, TestSupport.drain(ch).length, "a provider never starts heartbeats");
        ch.writeInbound(event((byte) (Wire.FLAG_REQUEST | Wire.FLAG_TWO_WAY), Status.OK, 42));
        List<Frame> answers = TestSupport.frames(TestSupport.drain(ch));
        assertEquals(1, answers.size());
        assertEquals(42, answers.get(0).requestId);
        assertTrue(answers.get(0).isEvent());
        assertFalse(answers.get(0).isRequest());
        assertTrue(passed.isEmpty(), "heartbeats stop here");
        ch.finishAndReleaseAll();
    }

    @Test
    void goingAwayNoticesAndCallsPassOn() {
        EmbeddedChannel ch = channel(false);
        Frame notice = event(Wire.FLAG_REQUEST, Status.GOING_AWAY, 0);
        Frame call = new Frame((byte) (Wire.FLAG_REQUEST | Wire.FLAG_TWO_WAY), (byte) 8, (byte) 0, 7, 0,
                Unpooled.EMPTY_BUFFER);
        ch.writeInbound(notice, call);
        assertEquals(List.of(notice, call), passed);
        ch.finishAndReleaseAll();
    }

    @Test
    void writeIdleSendsAHeartbeatAndReaderIdleClosesAConsumer() {
        EmbeddedChannel ch = channel(true);
        TestSupport.drain(ch); // the handshake
        ch.pipeline().fireUserEventTriggered(IdleStateEvent.FIRST_WRITER_IDLE_STATE_EVENT);
        assertEquals(1, TestSupport.frames(TestSupport.drain(ch)).size());
        ch.pipeline().fireUserEventTriggered(IdleStateEvent.FIRST_READER_IDLE_STATE_EVENT);
        assertEquals(List.of(HeartbeatHandler.Event.PEER_SILENT), passed);
        assertFalse(ch.isOpen(), "a silent peer's connection is closed");
    }

    @Test
    void readerIdleClosesAProviderConnectionWithoutPinging() {
        EmbeddedChannel ch = channel(false);
        ch.pipeline().fireUserEventTriggered(IdleStateEvent.FIRST_WRITER_IDLE_STATE_EVENT);
        assertEquals(0, TestSupport.drain(ch).length);
        ch.pipeline().fireUserEventTriggered(IdleStateEvent.FIRST_READER_IDLE_STATE_EVENT);
        assertFalse(ch.isOpen());
    }
}
