package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServerLimits;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.api.serialization.SerializerIds;
import io.kestrel.rpc.api.stream.StreamLimits;
import io.kestrel.rpc.core.stream.FeedService;
import io.kestrel.rpc.core.stream.FeedServiceImpl;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Stream frames from a raw socket that breaks the rules: more messages than granted cancels only that stream; a
 * window frame granting nothing closes only that connection; a proper consumer on another connection is served.
 * The same for compact DATA frames: a message over the payload limit or beyond the credit cancels that stream, a
 * compact flag on anything but a stream frame, a negative length or a frame that never completes closes that
 * connection.
 */
class HostileStreamTest {
    static final String ECHO = FeedService.class.getName() + "#echo(io.kestrel.rpc.api.stream.StreamObserver)";
    static final int PAYLOAD = 64 * 1024;
    RpcRuntime provider;
    RpcRuntime consumer;
    FeedService good;
    Serializer kryo = Serializations.installed().byName("kryo")
            .create(SerializationOptions.builder().allowlist(ClassAllowlist.withDefaults()).build());

    @BeforeEach
    void start() {
        provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().payloadBytes(PAYLOAD)
                .limits(ServerLimits.builder().frameTimeout(Duration.ofSeconds(1)).build()).build()).build();
        provider.export(ServiceConfig.builder(FeedService.class, new FeedServiceImpl()).serialization("kryo").build());
        consumer = RpcRuntime.builder().build();
        good = consumer.refer(ReferenceConfig.builder(FeedService.class).url("127.0.0.1:" + provider.boundPort())
                .timeout(Duration.ofSeconds(10)).build());
    }

    @AfterEach
    void stop() {
        consumer.close();
        provider.close();
    }

    private byte[] kryoBytes(Object value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        kryo.serialize(value, out);
        return out.toByteArray();
    }

    private static void writeStream(RawClient raw, int ops, long stream, byte[] body) throws java.io.IOException {
        raw.writeFrame(0x21, ops, stream, body); // a consumer's stream frame (serialization byte 0: not read here)
    }

    private RawClient.Response openEcho(RawClient raw, long stream) throws Exception {
        raw.writeRequest(stream, SerializerIds.KRYO, 0, ECHO, new byte[0]);
        return raw.read(); // the provider's initial window
    }

    @Test
    void messagesBeyondTheGrantedWindowCancelThatStreamOnly() throws Exception {
        try (RawClient raw = new RawClient(provider.boundPort())) {
            RawClient.Response window = openEcho(raw, 7);
            assertEquals(0x20, window.flags());
            assertEquals(0x08, window.status());
            assertEquals(StreamLimits.window(), ByteBuffer.wrap(window.body()).getInt());
            // grants no credit back, so the provider's echo waits and the messages pile up: one more than granted
            byte[] message = kryoBytes("flood");
            for (int i = 0; i <= StreamLimits.window(); i++) {
                writeStream(raw, 0x01, 7, message);
            }
            RawClient.Response cancel = raw.read();
            while (cancel.status() != 0x04 && cancel.requestId() == 7 && (cancel.flags() & 0x20) != 0) {
                cancel = raw.read();
            }
            assertEquals(0x04, cancel.status(), "a cancel of the stream");
            String reason = cancel.message();
            assertTrue(reason.contains("more than the " + StreamLimits.window() + " messages it was granted"), reason);
            assertTrue(reason.contains(StreamLimits.WINDOW_PROPERTY), reason);
            // the connection stays: a heartbeat on it is answered
            raw.writeFrame(0x01 | 0x02 | 0x04, 0, 99, new byte[0]);
            RawClient.Response pong = raw.read();
            while (pong.requestId() != 99) {
                pong = raw.read();
            }
            assertEquals(0x04, pong.flags() & 0x04);
        }
        assertEquals("pong ok", good.ping("ok"));
    }

    /** Reads the provider's frames until the cancel of {@code stream}; returns its reason. */
    private static String cancelOf(RawClient raw, long stream) throws Exception {
        RawClient.Response r = raw.read();
        while (!(r.status() == 0x04 && r.requestId() == stream && (r.flags() & 0x20) != 0)) {
            r = raw.read();
        }
        return r.message();
    }

    private void assertConnectionServes(RawClient raw) throws Exception {
        raw.writeFrame(0x01 | 0x02 | 0x04, 0, 99, new byte[0]); // a heartbeat on it is answered
        RawClient.Response pong = raw.read();
        while (pong.requestId() != 99) {
            pong = raw.read();
        }
        assertEquals(0x04, pong.flags() & 0x04);
    }

    @Test
    void compactMessagesBeyondTheGrantedWindowCancelThatStreamOnly() throws Exception {
        try (RawClient raw = new RawClient(provider.boundPort())) {
            openEcho(raw, 8);
            byte[] message = kryoBytes("flood");
            for (int i = 0; i <= StreamLimits.window(); i++) {
                raw.writeCompact(0x61, 8, message.length, message);
            }
            String reason = cancelOf(raw, 8);
            assertTrue(reason.contains("more than the " + StreamLimits.window() + " messages it was granted"), reason);
            assertConnectionServes(raw);
        }
        assertEquals("pong ok", good.ping("ok"));
    }

    @Test
    void aCompactMessageOverThePayloadLimitCancelsThatStreamOnly() throws Exception {
        try (RawClient raw = new RawClient(provider.boundPort())) {
            openEcho(raw, 9);
            raw.writeCompact(0x61, 9, PAYLOAD + 1, new byte[PAYLOAD + 1]); // skipped as it arrives, never held
            String reason = cancelOf(raw, 9);
            assertTrue(reason.contains("a message of " + (PAYLOAD + 1) + " bytes arrived over the payload limit"),
                    reason);
            assertConnectionServes(raw);
        }
        assertEquals("pong ok", good.ping("ok"));
    }

    @Test
    void theCompactFlagOnAFrameThatIsNotAStreamFrameClosesThatConnection() throws Exception {
        try (RawClient raw = new RawClient(provider.boundPort())) {
            raw.writeCompact(0x41, 1, 2, new byte[] {1, 2});
            assertTrue(raw.closedByPeer(), "compact without the stream flag closes the connection");
        }
        assertEquals("pong ok", good.ping("ok"));
    }

    @Test
    void aCompactFrameWithANegativeLengthClosesThatConnection() throws Exception {
        try (RawClient raw = new RawClient(provider.boundPort())) {
            openEcho(raw, 4);
            raw.writeCompact(0x61, 4, -1, new byte[0]);
            assertTrue(raw.closedByPeer(), "a negative length closes the connection");
        }
        assertEquals("pong ok", good.ping("ok"));
    }

    @Test
    void aCompactFrameWhoseLengthRunsPastWhatIsSentClosesThatConnectionAtTheFrameTimeout() throws Exception {
        try (RawClient raw = new RawClient(provider.boundPort())) {
            openEcho(raw, 6);
            long t0 = System.nanoTime();
            raw.writeCompact(0x61, 6, 1000, new byte[10]); // 990 bytes never come
            assertTrue(raw.closedByPeer(), "closed once the frame stays incomplete past frame-timeout (1 s)");
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms >= 900, "closed after the frame timeout, not before: " + ms + " ms");
        }
        assertEquals("pong ok", good.ping("ok"));
    }

    @Test
    void aWindowGrantingNothingClosesThatConnection() throws Exception {
        try (RawClient raw = new RawClient(provider.boundPort())) {
            openEcho(raw, 3);
            writeStream(raw, 0x08, 3, new byte[] {0, 0, 0, 0});
            assertTrue(raw.closedByPeer(), "a corrupt window frame closes the connection");
        }
        assertEquals("pong ok", good.ping("ok"));
    }

    @Test
    void streamFramesForStreamsThatAreNotOpenAreDropped() throws Exception {
        try (RawClient raw = new RawClient(provider.boundPort())) {
            for (int i = 0; i < 1000; i++) {
                writeStream(raw, 0x01, 1_000_000 + i, "junk".getBytes(StandardCharsets.UTF_8));
            }
            raw.writeFrame(0x01 | 0x02 | 0x04, 0, 5, new byte[0]);
            assertEquals(5, raw.read().requestId(), "the connection still answers");
        }
        assertEquals("pong ok", good.ping("ok"));
    }
}
