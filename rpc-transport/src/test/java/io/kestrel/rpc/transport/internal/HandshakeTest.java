package io.kestrel.rpc.transport.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.transport.TransportCounters;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.CorruptedFrameException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The handshake pinned byte for byte: the provider's answer to the first heartbeat of a connection
 * carries its services' facts ({@link Handshake}); later answers have no body; a consumer reads the
 * facts and fires them before PEER_ANSWERED; an answer without a body (an earlier provider) reads as
 * nothing said.
 */
class HandshakeTest {
    /** The consumer's handshake heartbeat: flags 07 (request|two-way|event), serialization 00, status 00, id 1, no body. */
    static final String PING = "4b5201070000000000000000000100000000";
    /**
     * The answer: flags 04 (event), status 14 (OK), id 1, body length 0x11: one service (01), key "g/a.B:1" (07 + 7
     * bytes), one attribute (01): "p" (01 70) = "kryo" (04 6b72796f).
     */
    static final String FIRST_ANSWER = "4b520104001400000000000000010000001101" + "07672f612e423a31" + "01" + "0170"
            + "046b72796f";
    /** The answer to the second heartbeat: no body. */
    static final String SECOND_ANSWER = "4b5201040014000000000000000200000000";

    private static final Map<String, Map<String, String>> FACTS = Map.of("g/a.B:1", Map.of("p", "kryo"));

    @Test
    void theProviderAnswersTheFirstHeartbeatWithItsFactsAndLaterOnesWithout() {
        EmbeddedChannel ch = new EmbeddedChannel();
        TransportCounters counters = new TransportCounters();
        ResponseWriter out = new ResponseWriter(ch, counters, 4096);
        int[] asked = {0};
        ch.pipeline().addLast(new FrameDecoder(4096, counters), HeartbeatHandler.provider(3000, out, () -> {
            asked[0]++;
            return FACTS;
        }));
        ch.writeInbound(Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(PING)));
        ch.runPendingTasks();
        assertEquals(FIRST_ANSWER, TestSupport.hex(TestSupport.drain(ch)));
        ch.writeInbound(Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(PING.replace("00010000", "00020000"))));
        ch.runPendingTasks();
        assertEquals(SECOND_ANSWER, TestSupport.hex(TestSupport.drain(ch)));
        assertEquals(1, asked[0], "the facts are asked once per connection");
        ch.finishAndReleaseAll();
    }

    @Test
    void theConsumerFiresTheFactsBeforeThePeerAnswered() {
        List<Object> events = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(4096, new TransportCounters()),
                HeartbeatHandler.consumer(3000), new ChannelInboundHandlerAdapter() {
                    @Override
                    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                        events.add(evt);
                    }
                });
        assertEquals(PING, TestSupport.hex(TestSupport.drain(ch)), "the consumer's handshake heartbeat");
        ch.writeInbound(Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(FIRST_ANSWER)));
        assertEquals(List.of(new Handshake.Facts(FACTS), HeartbeatHandler.Event.PEER_ANSWERED), events);
        ch.finishAndReleaseAll();
    }

    @Test
    void anAnswerWithoutBodyFromAnEarlierProviderReadsAsNothingSaid() {
        List<Object> events = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(4096, new TransportCounters()),
                HeartbeatHandler.consumer(3000), new ChannelInboundHandlerAdapter() {
                    @Override
                    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                        events.add(evt);
                    }
                });
        TestSupport.drain(ch);
        ch.writeInbound(Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(SECOND_ANSWER.replace("00000002", "00000001"))));
        assertEquals(List.of(new Handshake.Facts(Map.of()), HeartbeatHandler.Event.PEER_ANSWERED), events);
        ch.finishAndReleaseAll();
    }

    @Test
    void aBodyRoundTripsInOrderAndALyingCountIsRefused() {
        Map<String, Map<String, String>> services = new LinkedHashMap<>();
        services.put("a.B", Map.of("x", "1"));
        services.put("g/c.D:2", Map.of());
        ByteBuf buf = Unpooled.buffer();
        Handshake.write(buf, services);
        assertEquals(services, Handshake.read(buf));
        assertTrue(Handshake.read(Unpooled.EMPTY_BUFFER).isEmpty());
        CorruptedFrameException e = assertThrows(CorruptedFrameException.class,
                () -> Handshake.read(Unpooled.wrappedBuffer(new byte[] {(byte) 0xff, 0x7f, 0})));
        assertTrue(e.getMessage().contains("announces"), e.getMessage());
    }
}
