package io.kestrel.rpc.core;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/** A blocking socket that writes hand-made frames and reads raw responses: the hostile peer of tests. */
final class RawClient implements AutoCloseable {
    static final int MAGIC = 0x4B52;

    record Response(int flags, int serializationId, int status, long requestId, byte[] body) {
        /** The message of an error response (a varint-length UTF-8 string). */
        String message() {
            int len = 0;
            int shift = 0;
            int i = 0;
            while (true) {
                int b = body[i++] & 0xFF;
                len |= (b & 0x7F) << shift;
                if (b < 0x80) {
                    break;
                }
                shift += 7;
            }
            return new String(body, i, len, StandardCharsets.UTF_8);
        }
    }

    private final Socket socket;
    private final DataOutputStream out;
    private final DataInputStream in;

    RawClient(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(5000);
        // buffered: each frame leaves in one write, so a server that closes on the first bad byte cannot turn
        // the rest of the same frame into a broken pipe
        out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 1 << 16));
        in = new DataInputStream(socket.getInputStream());
    }

    void writeRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    void writeHeader(int flags, int serializationId, long requestId, int bodyLength) throws IOException {
        out.writeShort(MAGIC);
        out.writeByte(1);
        out.writeByte(flags);
        out.writeByte(serializationId);
        out.writeByte(0);
        out.writeLong(requestId);
        out.writeInt(bodyLength);
        out.flush();
    }

    /** A frame with this status and body (events such as the credential, or a heartbeat with a query). */
    void writeFrame(int flags, int status, long requestId, byte[] body) throws IOException {
        out.writeShort(MAGIC);
        out.writeByte(1);
        out.writeByte(flags);
        out.writeByte(0);
        out.writeByte(status);
        out.writeLong(requestId);
        out.writeInt(body.length);
        out.write(body);
        out.flush();
    }

    /** A compact stream DATA frame (12-byte header: magic, version, flags, 4-byte stream id, body length). */
    void writeCompact(int flags, int streamId, int bodyLength, byte[] body) throws IOException {
        out.writeShort(MAGIC);
        out.writeByte(1);
        out.writeByte(flags);
        out.writeInt(streamId);
        out.writeInt(bodyLength);
        out.write(body);
        out.flush();
    }

    /** {@code varint count, count x (varint length, UTF-8 bytes)}: a handshake query. */
    static byte[] strings(java.util.List<String> values) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        varint(body, values.size());
        for (String v : values) {
            byte[] b = v.getBytes(StandardCharsets.UTF_8);
            varint(body, b.length);
            body.writeBytes(b);
        }
        return body.toByteArray();
    }

    /** A two-way request; {@code descriptor} non-null defines {@code methodRef} with it. */
    void writeRequest(long requestId, int serializationId, int methodRef, String descriptor, byte[] args) throws IOException {
        out.write(requestFrame(requestId, serializationId, methodRef, descriptor, 5000, args));
        out.flush();
    }

    /** The bytes of a whole two-way request frame, as a consumer writes it (hostile tests send them raw). */
    static byte[] requestFrame(long requestId, int serializationId, int methodRef, String descriptor, int timeoutMillis,
            byte[] args) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        varint(body, methodRef);
        if (descriptor != null) {
            byte[] d = descriptor.getBytes(StandardCharsets.UTF_8);
            varint(body, d.length);
            body.writeBytes(d);
        }
        varint(body, timeoutMillis);
        varint(body, 0); // attachments
        body.writeBytes(args);
        ByteArrayOutputStream frame = new ByteArrayOutputStream(18 + body.size());
        DataOutputStream header = new DataOutputStream(frame);
        try {
            header.writeShort(MAGIC);
            header.writeByte(1);
            header.writeByte(0x01 | 0x02 | (descriptor != null ? 0x08 : 0));
            header.writeByte(serializationId);
            header.writeByte(0);
            header.writeLong(requestId);
            header.writeInt(body.size());
        } catch (IOException impossible) {
            throw new java.io.UncheckedIOException(impossible);
        }
        frame.writeBytes(body.toByteArray());
        return frame.toByteArray();
    }

    /**
     * The arguments of a generic call ({@code $invoke(name, types, args)}) as {@code serializer} writes them: the
     * lengths of all arguments but the last, then the arguments. An attacker's bytes: nothing is checked.
     */
    static byte[] genericArguments(io.kestrel.rpc.api.serialization.Serializer serializer, String method,
            String[] types, Object[] args) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        byte[][] parts = {serialized(serializer, method), serialized(serializer, types), serialized(serializer, args)};
        varint(body, parts[0].length);
        varint(body, parts[1].length);
        for (byte[] part : parts) {
            body.writeBytes(part);
        }
        return body.toByteArray();
    }

    private static byte[] serialized(io.kestrel.rpc.api.serialization.Serializer serializer, Object value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        serializer.serialize(value, out);
        return out.toByteArray();
    }

    private static void varint(ByteArrayOutputStream out, int v) {
        while ((v & ~0x7F) != 0) {
            out.write((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out.write(v);
    }

    Response read() throws IOException {
        int magic = in.readUnsignedShort();
        if (magic != MAGIC) {
            throw new IOException("bad magic in response: " + magic);
        }
        in.readUnsignedByte();
        int flags = in.readUnsignedByte();
        if ((flags & 0x40) != 0) { // a compact stream DATA frame
            long id = in.readInt() & 0xFFFF_FFFFL;
            byte[] body = new byte[in.readInt()];
            in.readFully(body);
            return new Response(flags, 0, 0x01, id, body);
        }
        int ser = in.readUnsignedByte();
        int status = in.readUnsignedByte();
        long id = in.readLong();
        int len = in.readInt();
        byte[] body = new byte[len];
        in.readFully(body);
        return new Response(flags, ser, status, id, body);
    }

    /** True if the server closed the connection (EOF or reset) within the socket timeout. */
    boolean closedByPeer() throws IOException {
        try {
            while (true) {
                if (in.read() < 0) {
                    return true;
                }
            }
        } catch (EOFException | java.net.SocketException e) {
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
