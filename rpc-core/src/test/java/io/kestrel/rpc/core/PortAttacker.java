package io.kestrel.rpc.core;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.api.serialization.SerializerIds;
import io.kestrel.rpc.core.fixture.EchoService;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Map;

/**
 * The frames of the shared attack suite ({@link PortContractTest}) in one wire protocol: what a hostile peer
 * writes raw to a provider's port. Every protocol a port can speak ({@link ProtocolConfig#NAMES}) needs one;
 * {@link #of} fails for a protocol without, so a new protocol cannot skip the suite.
 */
interface PortAttacker {
    /** The serialization the good client and the attacker use on this protocol. */
    String serialization();

    /** A two-way heartbeat (ping) request. */
    byte[] heartbeat(long id);

    /** A two-way request for a method the provider does not have: answered with an error. */
    byte[] unknownMethod(long id);

    /** A two-way call of {@code EchoService.echo(text)}; {@code first} on a connection's first call. */
    byte[] echo(long id, String text, boolean first);

    /** The header of a two-way request announcing a body of {@code bodyLength} bytes (the body is not included). */
    byte[] requestHeader(long id, int bodyLength);

    static PortAttacker of(String protocol) {
        return switch (protocol) {
            case ProtocolConfig.KESTREL -> new Native();
            case ProtocolConfig.DUBBO -> new Dubbo();
            default -> throw new AssertionError("protocol " + protocol + " has no PortAttacker: write its frames here"
                    + " so the shared attack suite (PortContractTest) runs against its port");
        };
    }

    /** The native protocol (header layout in FrameDecoder). */
    final class Native implements PortAttacker {
        static final String ECHO = EchoService.class.getName() + "#echo(java.lang.String)";
        private final Serializer kryo = TestRuntimes.serializer("kryo", ClassAllowlist.withDefaults());

        @Override
        public String serialization() {
            return "kryo";
        }

        @Override
        public byte[] heartbeat(long id) {
            return header(0x07, (byte) 0, id, 0).array();
        }

        @Override
        public byte[] unknownMethod(long id) {
            return RawClient.requestFrame(id, SerializerIds.KRYO, 42, null, 10_000, SerialDosTest.bytes(kryo, "?"));
        }

        @Override
        public byte[] echo(long id, String text, boolean first) {
            return RawClient.requestFrame(id, SerializerIds.KRYO, 1, first ? ECHO : null, 10_000,
                    SerialDosTest.bytes(kryo, text));
        }

        @Override
        public byte[] requestHeader(long id, int bodyLength) {
            return header(0x03, SerializerIds.KRYO, id, bodyLength).array();
        }

        private static ByteBuffer header(int flags, byte serializationId, long id, int bodyLength) {
            return ByteBuffer.allocate(18).putShort((short) RawClient.MAGIC).put((byte) 1).put((byte) flags)
                    .put(serializationId).put((byte) 0).putLong(id).putInt(bodyLength);
        }
    }

    /** Apache Dubbo's dubbo protocol (header layout in DubboWire), with hessian2 bodies. */
    final class Dubbo implements PortAttacker {
        private static final int REQUEST_TWO_WAY_HESSIAN2 = 0x80 | 0x40 | 2;
        private final Serializer hessian2 = TestRuntimes.serializer("hessian2", ClassAllowlist.withDefaults());

        @Override
        public String serialization() {
            return "hessian2";
        }

        @Override
        public byte[] heartbeat(long id) {
            return frame(REQUEST_TWO_WAY_HESSIAN2 | 0x20, id, new byte[] {'N'}); // hessian2's null
        }

        @Override
        public byte[] unknownMethod(long id) {
            return frame(REQUEST_TWO_WAY_HESSIAN2, id, body("no.such.Service", "nope", "", null));
        }

        @Override
        public byte[] echo(long id, String text, boolean first) {
            return frame(REQUEST_TWO_WAY_HESSIAN2, id, body(EchoService.class.getName(), "echo", "Ljava/lang/String;",
                    text));
        }

        @Override
        public byte[] requestHeader(long id, int bodyLength) {
            return header(REQUEST_TWO_WAY_HESSIAN2, id, bodyLength).array();
        }

        /** A two-way call of {@code EchoService.echoObject(argument)}. */
        byte[] echoObject(long id, Object argument) {
            return frame(REQUEST_TWO_WAY_HESSIAN2, id, body(EchoService.class.getName(), "echoObject",
                    "Ljava/lang/Object;", argument));
        }

        private byte[] body(String path, String method, String desc, Object argument) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            hessian2.writeSequence(out, values -> {
                values.write("2.0.2");
                values.write(path);
                values.write("0.0.0");
                values.write(method);
                values.write(desc);
                if (argument != null) {
                    values.write(argument);
                }
                values.write(Map.of("path", path, "timeout", "10000"));
                return null;
            });
            return out.toByteArray();
        }

        private static byte[] frame(int flags, long id, byte[] body) {
            ByteBuffer frame = ByteBuffer.allocate(16 + body.length);
            frame.put(header(flags, id, body.length).array()).put(body);
            return frame.array();
        }

        private static ByteBuffer header(int flags, long id, int bodyLength) {
            return ByteBuffer.allocate(16).putShort((short) 0xdabb).put((byte) flags).put((byte) 0).putLong(id)
                    .putInt(bodyLength);
        }
    }
}
