package io.kestrel.rpc.transport.internal;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.CorruptedFrameException;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The consumer's handshake: a heartbeat whose body names the services it calls (a query), and the
 * provider's answer: what each of those services asks its consumers to agree on, as text attributes
 * per service. The transport carries them; the invocation layer defines the names (accepted and
 * preferred serialization, optimizer and its fingerprint) and decides what a caller is told: only
 * services it named and may call, judged on the identity the connection has proved by then (the
 * credential and the TLS handshake come before the first heartbeat). Nothing is listed unasked
 * unless the provider discloses its services. A consumer asks again, on a later heartbeat, when a
 * reference to another service starts sharing the connection; heartbeats without a query are
 * answered without a body (but the first one of a provider that discloses its services).
 *
 * <pre>
 *  query    := varint nameCount, nameCount x string key
 *  answer   := varint serviceCount, serviceCount x service
 *  service  := string key ("group/interface:version", ServiceKey's text),
 *              varint attributeCount, attributeCount x (string name, string value)
 *  string   := varint byte length, UTF-8 bytes
 *  varint   := unsigned, 7 bits per byte, low bits first, high bit set on all but the last byte
 * </pre>
 *
 * Compatibility: a consumer of an earlier version sends no query and ignores the body of an answer
 * (it keeps its own settings unless the provider discloses its services); a provider of an earlier
 * version ignores the query and answers the first heartbeat with all its services, later ones with
 * no body, which reads as "nothing said": the consumer keeps its own settings. Reading is bounded by the frame's length (itself bounded by the payload limit) and by
 * {@link #MAX_STRING_BYTES} per string.
 */
public final class Handshake {
    /** Longest name, key or value accepted in a handshake body. */
    static final int MAX_STRING_BYTES = 64 * 1024;

    /**
     * The user event a consumer's heartbeat handler fires for an answer to a query (and for the first
     * answer of a connection, before its PEER_ANSWERED).
     *
     * @param services what the provider said, service key text to attributes
     * @param asked the service keys the answered heartbeat named
     * @param first whether this answers the connection's first heartbeat (it replaces what an earlier
     *     connection was told; later answers add to it)
     */
    public record Facts(Map<String, Map<String, String>> services, Set<String> asked, boolean first) {
    }

    private Handshake() {
    }

    /** Writes {@code services} (service key to attributes) in the answer format above. */
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

    /** Writes a query naming {@code services} (service key text). */
    public static void writeQuery(ByteBuf out, Collection<String> services) {
        Wire.writeVarint(out, services.size());
        services.forEach(key -> Wire.writeString(out, key));
    }

    /**
     * Reads a query written by {@link #writeQuery}, without duplicates, in order.
     *
     * @throws CorruptedFrameException when the body is malformed
     */
    public static Set<String> readQuery(ByteBuf body) {
        int count = Wire.readVarint(body);
        checkCount(count, body);
        Set<String> names = new LinkedHashSet<>();
        for (int i = 0; i < count; i++) {
            names.add(Wire.readString(body, MAX_STRING_BYTES));
        }
        return Collections.unmodifiableSet(names);
    }

    /**
     * Reads an answer written by {@link #write}; an empty body reads as no services.
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
