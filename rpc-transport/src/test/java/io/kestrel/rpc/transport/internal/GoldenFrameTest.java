package io.kestrel.rpc.transport.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.transport.TransportCounters;
import io.kestrel.rpc.transport.spi.MethodRef;
import io.kestrel.rpc.transport.spi.RpcRequest;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.HashedWheelTimer;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The native wire format pinned byte for byte: request frames as the consumer's codec writes them
 * and response frames as the provider's pipeline writes them. A change of the wire format must
 * change this test (and the byte diagrams in {@link RequestEncoder} and {@link ResponseEncoder}).
 * The serializer is the test's UTF-8 one, so only the framework's own bytes are pinned.
 */
class GoldenFrameTest {
    /**
     * greet("Ada"), first use of the method on the connection: header (magic 4b52, version 01, flags
     * 0b = request|two-way|method definition, serialization 4d, status 00, request id 1, body length
     * 0x62), method reference 00, descriptor (length 0x51 + text), timeout e807 (1000 ms), one
     * attachment trace=t1, then the argument bytes "Ada".
     */
    static final String FIRST_REQUEST = "4b52010b4d000000000000000001000000620051696f2e6b65737472656c2e7270632e7472"
            + "616e73706f72742e696e7465726e616c2e54657374537570706f727424477265657465723a312e30236772656574286a617661"
            + "2e6c616e672e537472696e6729e80701057472616365027431416461";
    /** greet("Bob") again: flags 03, reference 00 without descriptor, timeout, no attachments, "Bob". */
    static final String SECOND_REQUEST = "4b5201034d0000000000000000020000000700e80700426f62";
    /** The answer to request 1: flags 00, status 14 (OK), body: kind 01 (value), "hello Ada". */
    static final String VALUE_RESPONSE = "4b5201004d1400000000000000010000000a0168656c6c6f20416461";
    /**
     * The answer to a call that threw: status 46 (SERVICE_ERROR), body: class name, message, then
     * the exception as the serializer wrote it ("!" + message for the test serializer).
     */
    static final String EXCEPTION_RESPONSE = "4b5201004d460000000000000003000000401f6a6176612e6c616e672e496c6c656761"
            + "6c5374617465457863657074696f6e0f626f6f6d2066726f6d20677265657421626f6f6d2066726f6d206772656574";
    /**
     * The answer to greet("Eve"), whose service set the response attachment srv=b1: flags 10
     * (attachments), status 14 (OK), body: one attachment (count 01, "srv", "b1"), then as without:
     * kind 01, "hello Eve".
     */
    static final String ATTACHED_VALUE_RESPONSE = "4b5201104d140000000000000004000000120103737276026231"
            + "0168656c6c6f20457665";

    @Test
    void requestFrames() {
        HashedWheelTimer timer = TestSupport.timer();
        try {
            PendingCalls pending = new PendingCalls(timer, 10, () -> "test");
            EmbeddedChannel ch = new EmbeddedChannel(new ClientCodec(pending,
                    new ResponseDecoder("p:1", 4096, TestSupport.allowlist()), new TransportCounters(), "p:1", 4096));
            MethodRef greet = new MethodRef(TestSupport.KEY, TestSupport.GREET);
            write(ch, pending, TestSupport.request(greet, 1000, Map.of("trace", "t1"), "Ada"));
            assertEquals(FIRST_REQUEST, TestSupport.hex(TestSupport.drain(ch)));
            write(ch, pending, TestSupport.request(greet, 1000, Map.of(), "Bob"));
            assertEquals(SECOND_REQUEST, TestSupport.hex(TestSupport.drain(ch)));
            ch.finishAndReleaseAll();
        } finally {
            timer.stop();
        }
    }

    @Test
    void responseFrames() {
        EmbeddedChannel ch = new EmbeddedChannel();
        TransportCounters counters = new TransportCounters();
        ResponseWriter out = new ResponseWriter(ch, counters, 4096);
        ch.pipeline().addLast(new FrameDecoder(4096, counters), HeartbeatHandler.provider(3000, out),
                new GoAwayHandler(out), new RequestHandler(new TestSupport.GreeterDispatcher(),
                        new Admission(Runnable::run), out, 4096, 100, null));
        ch.writeInbound(Unpooled.wrappedBuffer(hex(FIRST_REQUEST)));
        ch.runPendingTasks();
        assertEquals(VALUE_RESPONSE, TestSupport.hex(TestSupport.drain(ch)));
        ch.writeInbound(TestSupport.requestFrame(3, TestSupport.UTF8.id(), 0, null, "boom"));
        ch.runPendingTasks();
        assertEquals(EXCEPTION_RESPONSE, TestSupport.hex(TestSupport.drain(ch)));
        ch.writeInbound(TestSupport.requestFrame(4, TestSupport.UTF8.id(), 0, null, "Eve"));
        ch.runPendingTasks();
        assertEquals(ATTACHED_VALUE_RESPONSE, TestSupport.hex(TestSupport.drain(ch)));
        assertTrue(ch.isOpen());
        ch.finishAndReleaseAll();
    }

    private static void write(EmbeddedChannel ch, PendingCalls pending, RpcRequest request) {
        assertTrue(pending.reserve());
        PendingCall call = pending.add(request);
        TestSupport.Arguments args = TestSupport.serializeArguments(ByteBufAllocator.DEFAULT, request);
        call.attachArguments(args.bytes(), args.lengths());
        ch.writeOutbound(call);
    }

    private static byte[] hex(String hex) {
        return io.netty.buffer.ByteBufUtil.decodeHexDump(hex);
    }
}
