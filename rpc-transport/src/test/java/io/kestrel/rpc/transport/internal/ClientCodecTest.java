package io.kestrel.rpc.transport.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ConnectionUnavailableException;
import io.kestrel.rpc.api.PayloadTooLargeException;
import io.kestrel.rpc.api.RemoteInvocationException;
import io.kestrel.rpc.api.ServerBusyException;
import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.TransportCounters;
import io.kestrel.rpc.transport.spi.AttachedValue;
import io.kestrel.rpc.transport.spi.MethodRef;
import io.kestrel.rpc.transport.spi.RpcRequest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.HashedWheelTimer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The consumer's codec on an {@link EmbeddedChannel}: request frames out, responses in. */
class ClientCodecTest {
    private final HashedWheelTimer timer = TestSupport.timer();
    private final PendingCalls pending = new PendingCalls(timer, 100, () -> "test");
    private final MethodRef greet = new MethodRef(TestSupport.KEY, TestSupport.GREET);
    private final MethodRef join = new MethodRef(TestSupport.KEY, TestSupport.JOIN);
    private final List<Object> events = new ArrayList<>();
    private final EmbeddedChannel ch = new EmbeddedChannel(
            new ClientCodec(pending, new ResponseDecoder("provider:1", 4096, TestSupport.allowlist()),
                    new TransportCounters(), "provider:1", 4096),
            new ChannelInboundHandlerAdapter() {
                @Override
                public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                    events.add(evt);
                }
            });

    @AfterEach
    void stop() {
        ch.finishAndReleaseAll();
        timer.stop();
    }

    private PendingCall send(RpcRequest request) {
        assertTrue(pending.reserve());
        PendingCall call = pending.add(request);
        TestSupport.Arguments args = TestSupport.serializeArguments(ByteBufAllocator.DEFAULT, request);
        call.attachArguments(args.bytes(), args.lengths());
        ch.writeOutbound(call);
        return call;
    }

    @Test
    void definesAMethodOnceThenSendsItsNumber() {
        send(TestSupport.request(greet, 1000, Map.of(), "Ada"));
        send(TestSupport.request(join, 1000, Map.of(), "a", "bc"));
        send(TestSupport.request(greet, 1000, Map.of(), "Bob"));
        List<Frame> frames = TestSupport.frames(TestSupport.drain(ch));
        assertEquals(3, frames.size());
        Frame first = frames.get(0);
        assertTrue(first.hasMethodDef());
        assertEquals(0, RequestDecoder.readHead(first.body, true).methodRef());
        RequestDecoder.Head second = RequestDecoder.readHead(frames.get(1).body, frames.get(1).hasMethodDef());
        assertEquals(1, second.methodRef());
        assertEquals(MethodRef.descriptor(TestSupport.KEY, TestSupport.JOIN), second.descriptor());
        Object[] args = RequestDecoder.readArguments(frames.get(1).body, new Class<?>[] {String.class, String.class},
                TestSupport.UTF8);
        assertEquals(List.of("a", "bc"), List.of(args));
        Frame third = frames.get(2);
        assertFalse(third.hasMethodDef(), "greet was defined by the first request");
        RequestDecoder.Head head = RequestDecoder.readHead(third.body, false);
        assertEquals(0, head.methodRef());
        assertNull(head.descriptor());
        assertEquals(1000, head.timeoutMillis());
        frames.forEach(Frame::release);
    }

    @Test
    void aHeadThatFitsTheRoomInFrontOfTheArgumentsGoesOutAsOneBufferALargerOneAsTwo() {
        send(TestSupport.request(greet, 1000, Map.of(), "Ada")); // defines greet
        TestSupport.drain(ch);
        send(TestSupport.request(greet, 1000, Map.of("traceparent", "00-" + "1".repeat(32) + "-" + "2".repeat(16) + "-01"),
                "Bob"));
        List<ByteBuf> small = outbound();
        assertEquals(1, small.size(), "head (with a traceparent) copied in front of the arguments");
        String large = "v".repeat(RequestEncoder.HEAD_ROOM);
        send(TestSupport.request(greet, 1000, Map.of("big", large), "Cy"));
        List<ByteBuf> big = outbound();
        assertEquals(2, big.size(), "a head over " + RequestEncoder.HEAD_ROOM + " bytes goes as a buffer of its own");

        ByteBuf all = Unpooled.buffer();
        small.forEach(b -> all.writeBytes(b));
        big.forEach(b -> all.writeBytes(b));
        small.forEach(ByteBuf::release);
        big.forEach(ByteBuf::release);
        byte[] bytes = new byte[all.readableBytes()];
        all.readBytes(bytes);
        List<Frame> frames = TestSupport.frames(bytes);
        assertEquals(2, frames.size());
        RequestDecoder.Head bob = RequestDecoder.readHead(frames.get(0).body, false);
        assertEquals(Map.of("traceparent", "00-" + "1".repeat(32) + "-" + "2".repeat(16) + "-01"), bob.attachments());
        assertEquals(List.of("Bob"), List.of(RequestDecoder.readArguments(frames.get(0).body, new Class<?>[] {String.class},
                TestSupport.UTF8)));
        RequestDecoder.Head cy = RequestDecoder.readHead(frames.get(1).body, false);
        assertEquals(Map.of("big", large), cy.attachments());
        assertEquals(List.of("Cy"), List.of(RequestDecoder.readArguments(frames.get(1).body, new Class<?>[] {String.class},
                TestSupport.UTF8)));
        frames.forEach(Frame::release);
    }

    private List<ByteBuf> outbound() {
        List<ByteBuf> buffers = new ArrayList<>();
        Object o;
        while ((o = ch.readOutbound()) != null) {
            buffers.add((ByteBuf) o);
        }
        return buffers;
    }

    @Test
    void responsesCompleteTheirCallsByRequestId() throws Exception {
        PendingCall a = send(TestSupport.request(greet, 60_000, Map.of(), "a"));
        PendingCall b = send(TestSupport.request(greet, 60_000, Map.of(), "b"));
        TestSupport.drain(ch);
        ch.writeInbound(response(b.id(), Status.OK, valueBody("for b")));
        ch.writeInbound(response(a.id(), Status.SERVER_BUSY, errorBody("busy now")));
        assertEquals("for b", b.future().get(1, TimeUnit.SECONDS));
        ExecutionException e = assertThrows(ExecutionException.class, () -> a.future().get(1, TimeUnit.SECONDS));
        assertInstanceOf(ServerBusyException.class, e.getCause());
        assertEquals("busy now [" + TestSupport.KEY + "#greet on provider provider:1]", e.getCause().getMessage());
        assertEquals(0, pending.size());
    }

    @Test
    void responseAttachmentsArriveWithTheValueAndTooManyFailTheCallNamingTheLimit() throws Exception {
        PendingCall call = send(TestSupport.request(greet, 60_000, Map.of(), "a"));
        PendingCall flooded = send(TestSupport.request(greet, 60_000, Map.of(), "b"));
        TestSupport.drain(ch);
        ByteBuf body = Unpooled.buffer();
        Wire.writeAttachments(body, Map.of("region", "eu-1"));
        body.writeBytes(valueBody("for a"));
        ch.writeInbound(new Frame(Wire.FLAG_ATTACHMENTS, TestSupport.UTF8.id(), Status.OK.code(), call.id(),
                body.readableBytes(), body));
        assertEquals(new AttachedValue("for a", Map.of("region", "eu-1")), call.future().get(1, TimeUnit.SECONDS));

        ByteBuf tooMany = Unpooled.buffer();
        Wire.writeVarint(tooMany, 100_000);
        tooMany.writeBytes(valueBody("for b"));
        ch.writeInbound(new Frame(Wire.FLAG_ATTACHMENTS, TestSupport.UTF8.id(), Status.OK.code(), flooded.id(),
                tooMany.readableBytes(), tooMany));
        ExecutionException e = assertThrows(ExecutionException.class, () -> flooded.future().get(1, TimeUnit.SECONDS));
        assertTrue(e.getCause().getMessage().contains("response carries 100000 attachments; at most 256"
                + " (-Dkestrel.rpc.attachments.maxCount)"), e.getCause().getMessage());
        assertTrue(ch.isOpen(), "one bad response does not close the connection");
    }

    @Test
    void aServiceExceptionArrivesAsItself() throws Exception {
        PendingCall call = send(TestSupport.request(greet, 60_000, Map.of(), "a"));
        TestSupport.drain(ch);
        ByteBuf body = Unpooled.buffer();
        Wire.writeString(body, IllegalStateException.class.getName());
        Wire.writeString(body, "bad state");
        body.writeCharSequence("!bad state", StandardCharsets.UTF_8);
        ch.writeInbound(response(call.id(), Status.SERVICE_ERROR, body));
        ExecutionException e = assertThrows(ExecutionException.class, () -> call.future().get(1, TimeUnit.SECONDS));
        assertInstanceOf(IllegalStateException.class, e.getCause());
        assertEquals("bad state", e.getCause().getMessage());
    }

    @Test
    void anExceptionTheConsumerCannotReadBecomesRemoteInvocationException() throws Exception {
        PendingCall call = send(TestSupport.request(greet, 60_000, Map.of(), "a"));
        TestSupport.drain(ch);
        ByteBuf body = Unpooled.buffer();
        Wire.writeString(body, "com.example.NotAllowedHere");
        Wire.writeString(body, "secret");
        ch.writeInbound(response(call.id(), Status.SERVICE_ERROR, body));
        ExecutionException e = assertThrows(ExecutionException.class, () -> call.future().get(1, TimeUnit.SECONDS));
        RemoteInvocationException r = assertInstanceOf(RemoteInvocationException.class, e.getCause());
        assertTrue(r.getMessage().contains("com.example.NotAllowedHere"), r.getMessage());
    }

    @Test
    void aCallThatTimedOutWhileQueuedIsNotWritten() {
        assertTrue(pending.reserve());
        RpcRequest request = TestSupport.request(greet, 60_000, Map.of(), "late");
        PendingCall call = pending.add(request);
        call.fail(new IllegalStateException("gave up"));
        TestSupport.Arguments args = TestSupport.serializeArguments(ByteBufAllocator.DEFAULT, request);
        call.attachArguments(args.bytes(), args.lengths());
        ch.writeOutbound(call);
        assertEquals(0, TestSupport.drain(ch).length);
        assertEquals(0, args.bytes().refCnt(), "its arguments were released");
    }

    @Test
    void aRequestOverThePayloadLimitIsRefusedUnsent() {
        PendingCall call = send(TestSupport.request(greet, 60_000, Map.of(), "x".repeat(5000)));
        assertEquals(0, TestSupport.drain(ch).length);
        ExecutionException e = assertThrows(ExecutionException.class, () -> call.future().get(1, TimeUnit.SECONDS));
        PayloadTooLargeException p = assertInstanceOf(PayloadTooLargeException.class, e.getCause());
        assertTrue(p.getMessage().contains("payload limit of 4096 bytes"), p.getMessage());
    }

    @Test
    void goingAwayIsAcknowledgedAndLaterWritesAreRefusedAsNotSent() {
        ch.writeInbound(new Frame(Wire.FLAG_EVENT, (byte) 0, Status.GOING_AWAY.code(), 0, 0, Unpooled.EMPTY_BUFFER));
        List<Frame> acks = TestSupport.frames(TestSupport.drain(ch));
        assertEquals(1, acks.size());
        assertTrue(acks.get(0).isEvent() && acks.get(0).isRequest());
        assertEquals(Status.GOING_AWAY.code(), acks.get(0).status);
        assertEquals(List.of(ClientCodec.GOING_AWAY), events);

        PendingCall call = send(TestSupport.request(greet, 60_000, Map.of(), "after"));
        assertEquals(0, TestSupport.drain(ch).length);
        ExecutionException e = assertThrows(ExecutionException.class, () -> call.future().get(1, TimeUnit.SECONDS));
        assertInstanceOf(ConnectionUnavailableException.class, e.getCause());
    }

    private static ByteBuf valueBody(String value) {
        ByteBuf body = Unpooled.buffer();
        body.writeByte(ResponseEncoder.RESULT_VALUE);
        body.writeCharSequence(value, StandardCharsets.UTF_8);
        return body;
    }

    private static ByteBuf errorBody(String message) {
        ByteBuf body = Unpooled.buffer();
        Wire.writeString(body, message);
        return body;
    }

    private static Frame response(long id, Status status, ByteBuf body) {
        return new Frame((byte) 0, TestSupport.UTF8.id(), status.code(), id, body.readableBytes(), body);
    }
}
