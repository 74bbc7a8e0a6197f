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
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The handshake pinned byte for byte: the consumer's first heartbeat names the services it wants
 * facts for (a query); the provider answers a query, and the first heartbeat of a connection, with
 * what it tells this caller ({@link Handshake}); later plain heartbeats are answered without a body; a
 * consumer reads the facts and fires them, the first answer's before PEER_ANSWERED; an answer without
 * a body (an earlier provider) reads as nothing said.
 */
class HandshakeTest {
    /** A heartbeat without query: flags 07 (request|two-way|event), serialization 00, status 00, id 1, no body. */
    static final String PING = "4b5201070000000000000000000100000000";
    /** The consumer's handshake heartbeat: id 1, body length 9: one name (01), "g/a.B:1" (07 + 7 bytes). */
    static final String QUERY = "4b5201070000000000000000000100000009" + "01" + "07672f612e423a31";
    /**
     * The answer: flags 04 (event), status 14 (OK), id 1, body length 0x11: one service (01), key "g/a.B:1" (07 + 7
     * bytes), one attribute (01): "p" (01 70) = "kryo" (04 6b72796f).
     */
    static final String FIRST_ANSWER = "4b520104001400000000000000010000001101" + "07672f612e423a31" + "01" + "0170"
            + "046b72796f";
    /** The answer to the second heartbeat: no body. */
    static final String SECOND_ANSWER = "4b5201040014000000000000000200000000";

    private static final Map<String, Map<String, String>> FACTS = Map.of("g/a.B:1", Map.of("p", "kryo"));

    private static EmbeddedChannel provider(List<Set<String>> asked) {
        EmbeddedChannel ch = new EmbeddedChannel();
        TransportCounters counters = new TransportCounters();
        ResponseWriter out = new ResponseWriter(ch, counters, 4096);
        ch.pipeline().addLast(new FrameDecoder(4096, counters), HeartbeatHandler.provider(3000, out, names -> {
            asked.add(names);
            return names.isEmpty() ? Map.of() : FACTS;
        }));
        return ch;
    }

    private static void send(EmbeddedChannel ch, String hex) {
        ch.writeInbound(Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(hex)));
        ch.runPendingTasks();
    }

    @Test
    void theProviderAnswersAQueryWithWhatItTellsAndAPlainHeartbeatWithout() {
        List<Set<String>> asked = new ArrayList<>();
        EmbeddedChannel ch = provider(asked);
        send(ch, QUERY);
        assertEquals(FIRST_ANSWER, TestSupport.hex(TestSupport.drain(ch)));
        send(ch, PING.replace("00010000", "00020000"));
        assertEquals(SECOND_ANSWER, TestSupport.hex(TestSupport.drain(ch)));
        assertEquals(List.of(Set.of("g/a.B:1")), asked, "a plain heartbeat after the first asks nothing");
        ch.finishAndReleaseAll();
    }

    @Test
    void aFirstHeartbeatWithoutQueryAsksTheDispatcherWithNothingNamedAndALaterQueryIsAnswered() {
        List<Set<String>> asked = new ArrayList<>();
        EmbeddedChannel ch = provider(asked);
        send(ch, PING);
        assertEquals(SECOND_ANSWER.replace("00000002", "00000001"), TestSupport.hex(TestSupport.drain(ch)),
                "nothing told: no body");
        send(ch, QUERY.replace("00010000", "00020000"));
        assertEquals(FIRST_ANSWER.replace("00000001", "00000002"), TestSupport.hex(TestSupport.drain(ch)));
        assertEquals(List.of(Set.of(), Set.of("g/a.B:1")), asked);
        ch.finishAndReleaseAll();
    }

    @Test
    void aMalformedQueryIsAnsweredWithoutFacts() {
        List<Set<String>> asked = new ArrayList<>();
        EmbeddedChannel ch = provider(asked);
        send(ch, PING);
        TestSupport.drain(ch);
        send(ch, "4b5201070000000000000000000200000003" + "ff7f00");
        assertEquals(SECOND_ANSWER, TestSupport.hex(TestSupport.drain(ch)));
        assertEquals(List.of(Set.of()), asked);
        ch.finishAndReleaseAll();
    }

    private static EmbeddedChannel consumer(List<Object> events, java.util.function.Supplier<Set<String>> wanted) {
        return new EmbeddedChannel(new FrameDecoder(4096, new TransportCounters()),
                HeartbeatHandler.consumer(3000, wanted), new ChannelInboundHandlerAdapter() {
                    @Override
                    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                        events.add(evt);
                    }
                });
    }

    @Test
    void theConsumerAsksForItsServicesAndFiresTheFactsBeforeThePeerAnswered() {
        List<Object> events = new ArrayList<>();
        EmbeddedChannel ch = consumer(events, () -> Set.of("g/a.B:1"));
        assertEquals(QUERY, TestSupport.hex(TestSupport.drain(ch)), "the consumer's handshake heartbeat");
        ch.writeInbound(Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(FIRST_ANSWER)));
        assertEquals(List.of(new Handshake.Facts(FACTS, Set.of("g/a.B:1"), true), HeartbeatHandler.Event.PEER_ANSWERED),
                events);
        ch.finishAndReleaseAll();
    }

    @Test
    void aServiceWantedAfterTheHandshakeIsAskedForOnceOnALaterHeartbeat() {
        List<Object> events = new ArrayList<>();
        Set<String> wanted = new java.util.LinkedHashSet<>();
        EmbeddedChannel ch = consumer(events, () -> Set.copyOf(wanted));
        assertEquals(PING, TestSupport.hex(TestSupport.drain(ch)), "nothing wanted yet: no query");
        ch.writeInbound(Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(SECOND_ANSWER.replace("00000002", "00000001"))));
        wanted.add("g/a.B:1");
        HeartbeatHandler heartbeat = ch.pipeline().get(HeartbeatHandler.class);
        heartbeat.askMissing();
        heartbeat.askMissing();
        assertEquals(QUERY.replace("00010000", "00020000"), TestSupport.hex(TestSupport.drain(ch)), "asked once");
        ch.writeInbound(Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(FIRST_ANSWER.replace("00000001", "00000002"))));
        assertEquals(List.of(new Handshake.Facts(Map.of(), Set.of(), true), HeartbeatHandler.Event.PEER_ANSWERED,
                new Handshake.Facts(FACTS, Set.of("g/a.B:1"), false)), events);
        ch.finishAndReleaseAll();
    }

    @Test
    void anAnswerWithoutBodyFromAnEarlierProviderReadsAsNothingSaid() {
        List<Object> events = new ArrayList<>();
        EmbeddedChannel ch = consumer(events, () -> Set.of("g/a.B:1"));
        TestSupport.drain(ch);
        ch.writeInbound(Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(SECOND_ANSWER.replace("00000002", "00000001"))));
        assertEquals(List.of(new Handshake.Facts(Map.of(), Set.of("g/a.B:1"), true), HeartbeatHandler.Event.PEER_ANSWERED),
                events);
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
        ByteBuf query = Unpooled.buffer();
        Handshake.writeQuery(query, List.of("a.B", "g/c.D:2", "a.B"));
        assertEquals(List.of("a.B", "g/c.D:2"), List.copyOf(Handshake.readQuery(query)), "in order, once each");
    }
}
