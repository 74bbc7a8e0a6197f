package io.kestrel.rpc.transport.internal;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.CorruptedFrameException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The body of a provider's answer to the first heartbeat of a connection (the consumer's handshake):
 * what each exported service asks its consumers to agree on, as text attributes per service. The
 * transport carries them; the invocation layer defines the names (accepted and preferred
 * serialization, optimizer and its fingerprint). Later heartbeat answers have no body.
 *
 * <pre>
 *  body     := varint serviceCount, serviceCount x service
 *  service  := string key ("group/interface:version", ServiceKey's text),
 *              varint attributeCount, attributeCount x (string name, string value)
 *  string   := varint byte length, UTF-8 bytes
 *  varint   := unsigned, 7 bits per byte, low bits first, high bit set on all but the last byte
 * </pre>
 *
 * Compatibility: a consumer of an earlier version ignores the body of a heartbeat answer; an empty
 * body (a provider of an earlier version) reads as "nothing said", and the consumer keeps its own
 * settings. Reading is bounded by the frame's length (itself bounded by the payload limit) and by
 * {@link #MAX_STRING_BYTES} per string.
 */
public final class Handshake {
    /** Longest name, key or value accepted in a handshake body. */
    static final int MAX_STRING_BYTES = 64 * 1024;

    /** The user event a consumer's heartbeat handler fires, before the handshake's PEER_ANSWERED. */
    public record Facts(Map<String, Map<String, String>> services) {
    }

    private Handshake() {
    }

    /** Writes {@code services} (service key to attributes) in the body format above. */
    public static void write(ByteBuf out, Map<String, Map<String, String>> services) {
        Wire.writeVarint(out, services.size());
        services.forEach((key, attributes) -> {
            Wire.writeString(out, key);
            Wire.writeVarint(out, attributes.size());
            attributes.forEach((name, value) -> {
                Wire.writeString(out, name);
                Wire.writeString(out, value);
            });
        });
    }

    /**
     * Reads a body written by {@link #write}; an empty body reads as no services.
     *
     * @throws CorruptedFrameException when the body is malformed
     */
    public static Map<String, Map<String, String>> read(ByteBuf body) {
        if (!body.isReadable()) {
            return Map.of();
        }
        int count = Wire.readVarint(body);
        checkCount(count, body);
        Map<String, Map<String, String>> services = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            String key = Wire.readString(body, MAX_STRING_BYTES);
            int n = Wire.readVarint(body);
            checkCount(n, body);
            Map<String, String> attributes = new LinkedHashMap<>();
            for (int j = 0; j < n; j++) {
                attributes.put(Wire.readString(body, MAX_STRING_BYTES), Wire.readString(body, MAX_STRING_BYTES));
            }
            services.put(key, Collections.unmodifiableMap(attributes));
        }
        return Collections.unmodifiableMap(services);
    }

    /** Each entry takes at least one byte, so a count beyond the bytes left is a lie. */
    private static void checkCount(int count, ByteBuf body) {
        if (count > body.readableBytes()) {
            throw new CorruptedFrameException("handshake announces " + count + " entries but has only "
                    + body.readableBytes() + " bytes left");
        }
    }
}
