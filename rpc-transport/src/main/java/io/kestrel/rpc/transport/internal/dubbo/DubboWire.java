package io.kestrel.rpc.transport.internal.dubbo;

import io.kestrel.rpc.api.serialization.SerializerIds;
import io.kestrel.rpc.transport.Status;
import io.netty.buffer.ByteBuf;

/**
 * The header of Apache Dubbo's {@code dubbo} protocol, big-endian:
 *
 * <pre>
 *  0       2       3        4               12              16
 *  +-------+-------+--------+---------------+---------------+-------------------+
 *  | magic | flags | status |  request id   |  body length  |  body             |
 *  +-------+-------+--------+---------------+---------------+-------------------+
 *  magic 0xdabb
 *  flags: 0x80 request, 0x40 two-way, 0x20 event (heartbeat), low 5 bits the serialization id (hessian2 = 2,
 *  fastjson2 = 23)
 *  status (responses): 20 OK, 30 client timeout, 31 server timeout, 40 bad request, 50 bad response,
 *         60 service not found, 70 service error, 80 server error, 90 client error, 100 server busy
 *
 *  request body ({@link DubboRequestHead}, then the arguments): dubbo version, service path, service version,
 *         method name, parameter descriptor in JVM form ("Ljava/lang/String;I"), each argument, attachments map
 *  response body, status OK ({@link DubboResponseEncoder}): a type (an int), then by type
 *         0 exception / 1 value / 2 null, 3 / 4 / 5 the same followed by an attachments map
 *  response body, other status: the error message (a string)
 *  heartbeat: an event request whose body is a null value, answered by an event response with a null body
 * </pre>
 *
 * Every value in a body is one value of the frame's serialization, written one after another in one stream.
 */
final class DubboWire {
    static final short MAGIC = (short) 0xdabb;
    static final int HEADER_BYTES = 16;
    static final byte FLAG_REQUEST = (byte) 0x80;
    static final byte FLAG_TWO_WAY = 0x40;
    static final byte FLAG_EVENT = 0x20;
    static final int SERIALIZATION_MASK = 0x1f;
    /** Dubbo's serialization ids spoken here. */
    static final byte DUBBO_HESSIAN2 = 2;
    /** Dubbo 3's fastjson2 (each value a 4-byte length and JSONB bytes); the framework's own id for it differs. */
    static final byte DUBBO_FASTJSON2 = 23;

    static final byte RESPONSE_WITH_EXCEPTION = 0;
    static final byte RESPONSE_VALUE = 1;
    static final byte RESPONSE_NULL_VALUE = 2;
    static final byte RESPONSE_WITH_EXCEPTION_WITH_ATTACHMENTS = 3;
    static final byte RESPONSE_VALUE_WITH_ATTACHMENTS = 4;
    static final byte RESPONSE_NULL_VALUE_WITH_ATTACHMENTS = 5;

    static final byte STATUS_OK = 20;
    static final byte STATUS_CLIENT_TIMEOUT = 30;
    static final byte STATUS_SERVER_TIMEOUT = 31;
    static final byte STATUS_BAD_REQUEST = 40;
    static final byte STATUS_BAD_RESPONSE = 50;
    static final byte STATUS_SERVICE_NOT_FOUND = 60;
    static final byte STATUS_SERVICE_ERROR = 70;
    static final byte STATUS_SERVER_ERROR = 80;
    static final byte STATUS_CLIENT_ERROR = 90;
    static final byte STATUS_SERVER_BUSY = 100;

    private DubboWire() {
    }

    /** The framework's serialization id for Dubbo's, or -1 for one not spoken on this protocol. */
    static byte kestrelSerializationId(byte dubboId) {
        return dubboId == DUBBO_HESSIAN2 ? SerializerIds.HESSIAN2 : dubboId == DUBBO_FASTJSON2 ? SerializerIds.FASTJSON2
                : -1;
    }

    /** Dubbo's serialization id for the framework's, or -1. */
    static byte dubboSerializationId(byte kestrelId) {
        return kestrelId == SerializerIds.HESSIAN2 ? DUBBO_HESSIAN2 : kestrelId == SerializerIds.FASTJSON2
                ? DUBBO_FASTJSON2 : -1;
    }

    /** The Dubbo status for a native one; statuses Dubbo lacks become the nearest it has. */
    static byte dubboStatus(Status s) {
        return switch (s) {
            case OK -> STATUS_OK;
            case SERVER_TIMEOUT -> STATUS_SERVER_TIMEOUT;
            case BAD_REQUEST, UNAUTHENTICATED, PERMISSION_DENIED, PAYLOAD_TOO_LARGE -> STATUS_BAD_REQUEST;
            case BAD_RESPONSE -> STATUS_BAD_RESPONSE;
            case SERVICE_NOT_FOUND -> STATUS_SERVICE_NOT_FOUND;
            case SERVICE_ERROR -> STATUS_SERVICE_ERROR;
            case SERVER_BUSY -> STATUS_SERVER_BUSY;
            default -> STATUS_SERVER_ERROR;
        };
    }

    /** The native status for a Dubbo one (consumer side). */
    static Status kestrelStatus(byte dubbo) {
        return switch (dubbo) {
            case STATUS_OK -> Status.OK;
            case STATUS_CLIENT_TIMEOUT, STATUS_SERVER_TIMEOUT -> Status.SERVER_TIMEOUT;
            case STATUS_BAD_REQUEST -> Status.BAD_REQUEST;
            case STATUS_BAD_RESPONSE -> Status.BAD_RESPONSE;
            case STATUS_SERVICE_NOT_FOUND -> Status.SERVICE_NOT_FOUND;
            case STATUS_SERVICE_ERROR -> Status.SERVICE_ERROR;
            case STATUS_SERVER_BUSY -> Status.SERVER_BUSY;
            default -> Status.SERVER_ERROR;
        };
    }

    /** Writes a header with a body length to be set by {@link #setBodyLength}. */
    static void writeHeader(ByteBuf buf, byte flags, byte status, long requestId) {
        buf.writeShort(MAGIC);
        buf.writeByte(flags);
        buf.writeByte(status);
        buf.writeLong(requestId);
        buf.writeInt(0);
    }

    /** Sets the body length of the frame that starts at {@code frameStart}; returns it. */
    static int setBodyLength(ByteBuf buf, int frameStart) {
        int length = buf.writerIndex() - frameStart - HEADER_BYTES;
        buf.setInt(frameStart + 12, length);
        return length;
    }
}
