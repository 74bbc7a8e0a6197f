package io.kestrel.rpc.perf.soak.attack;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.serialization.SerializerIds;
import io.kestrel.rpc.api.generic.GenericService;
import io.kestrel.rpc.perf.soak.PortsServer;
import io.kestrel.rpc.perf.support.BenchmarkService;
import io.kestrel.rpc.perf.support.Encodings;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * The frames of the per-port attacks in one wire protocol, written by hand as a hostile client would: the
 * native one ({@link RawFrames}, fory bodies) or Apache Dubbo's ({@link DubboFrames}, hessian2 bodies).
 * Every call names {@link BenchmarkService} ({@code echo(String)}, {@code exists(long)}) or its generic
 * {@code $invoke}.
 */
public interface PortFrames {
    /** The protocol's name, as in the report ("native", "dubbo"). */
    String protocol();

    /** A two-way heartbeat as small as the protocol allows (native 18 bytes, dubbo 17). */
    byte[] heartbeat(long id);

    /** The first heartbeat of a consumer that has proved nothing, asking about the restricted service if it can. */
    byte[] probe(long id);

    /** A two-way request for a service the provider does not have. */
    byte[] unknownMethod(long id);

    /** The header of a two-way {@code echo} request announcing {@code bodyLength} bytes, without the body. */
    byte[] requestHeader(long id, int bodyLength);

    /** A generic call {@code $invoke(method, types, args)} of {@link BenchmarkService}. */
    byte[] generic(long id, String method, String[] types, Object[] args);

    /** An {@code echo} request carrying hessian2 typed arrays (one null element each) of the given type names. */
    byte[] typedArrays(long id, List<String> typeNames);

    /** Reads one answer frame: its flags, status and up to {@code keep} bytes of its body (the rest is skipped). */
    Answer read(DataInputStream in, int keep) throws IOException;

    /** An answer read back. */
    record Answer(int flags, int status, long id, byte[] body) {
        /** The status as the report counts it: "OK" (20) or the number. */
        String statusName() {
            return status == 20 ? "OK" : "status " + status;
        }

        boolean mentions(String text) {
            return new String(body, java.nio.charset.StandardCharsets.ISO_8859_1).contains(text);
        }
    }

    /** The key of the service only role {@link PortsServer#RESTRICTED_ROLE} may call. */
    static ServiceKey restricted() {
        return ServiceKey.parse(PortsServer.RESTRICTED_GROUP + "/" + BenchmarkService.class.getName());
    }

    /** The frames of {@code protocol} ("native" or "dubbo"). */
    static PortFrames of(String protocol) {
        return switch (protocol) {
            case "native" -> new Native();
            case "dubbo" -> new DubboFrames();
            default -> throw new IllegalArgumentException("unknown protocol '" + protocol + "'; use native or dubbo");
        };
    }

    /** The native protocol, fory bodies (the provider's serialization in the per-port soak). */
    final class Native implements PortFrames {
        private static final String FORY = "fory";
        private final String echo = AttackTarget.descriptor(BenchmarkService.class, "echo", String.class);
        /** {@code $invoke} of BenchmarkService, as a generic consumer names it. */
        private final String invoke = io.kestrel.rpc.transport.spi.MethodRef.descriptor(ServiceKey.of(BenchmarkService.class),
                invokeMethod());

        private static java.lang.reflect.Method invokeMethod() {
            try {
                return GenericService.class.getMethod("$invoke", String.class, String[].class, Object[].class);
            } catch (NoSuchMethodException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public String protocol() {
            return "native";
        }

        @Override
        public byte[] heartbeat(long id) {
            return event(id, new byte[0]);
        }

        @Override
        public byte[] probe(long id) {
            ByteArrayOutputStream query = new ByteArrayOutputStream(); // Handshake's query: count, keys
            RawFrames.varint(query, 1);
            RawFrames.string(query, restricted().toString());
            return event(id, query.toByteArray());
        }

        private static byte[] event(long id, byte[] body) {
            byte[] header = RawFrames.requestHeader((byte) 0, id, body.length, false);
            header[3] |= RawFrames.FLAG_EVENT;
            return ByteBuffer.allocate(header.length + body.length).put(header).put(body).array();
        }

        @Override
        public byte[] unknownMethod(long id) {
            return RawFrames.request(SerializerIds.FORY, id, true, RawFrames.requestBody(1,
                    "no.such.Service#nope(java.lang.String)", 10_000, null, Encodings.encode(FORY, "?")));
        }

        @Override
        public byte[] requestHeader(long id, int bodyLength) {
            return RawFrames.requestHeader(SerializerIds.FORY, id, bodyLength, false);
        }

        @Override
        public byte[] generic(long id, String method, String[] types, Object[] args) {
            // each frame defines its own method reference, so frames may go on fresh connections or one
            return RawFrames.request(SerializerIds.FORY, id, true, RawFrames.requestBody((int) id, invoke, 10_000, null,
                    Encodings.encode(FORY, method), Encodings.encode(FORY, types), Encodings.encode(FORY, args)));
        }

        @Override
        public byte[] typedArrays(long id, List<String> typeNames) {
            return RawFrames.request(SerializerIds.HESSIAN2, id, true, RawFrames.requestBody(1, echo, 10_000, null,
                    DubboFrames.hessianTypedArrays(typeNames)));
        }

        @Override
        public Answer read(DataInputStream in, int keep) throws IOException {
            byte[] header = new byte[RawFrames.HEADER_BYTES];
            in.readFully(header);
            ByteBuffer h = ByteBuffer.wrap(header);
            if (h.getShort() != RawFrames.MAGIC) {
                throw new IOException("bad magic in a native answer");
            }
            h.get();
            int flags = h.get() & 0xff;
            h.get();
            int status = h.get() & 0xff;
            long id = h.getLong();
            return new Answer(flags, status, id, body(in, h.getInt(), keep));
        }
    }

    /** Reads {@code length} body bytes, keeping the first {@code keep}. */
    static byte[] body(DataInputStream in, int length, int keep) throws IOException {
        byte[] kept = new byte[Math.min(length, keep)];
        in.readFully(kept);
        in.skipNBytes(length - kept.length);
        return kept;
    }
}
