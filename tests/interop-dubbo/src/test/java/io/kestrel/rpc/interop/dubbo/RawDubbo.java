package io.kestrel.rpc.interop.dubbo;

import com.caucho.hessian.io.Hessian2Output;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** A hand-driven dubbo-protocol client for hostile and low-level tests: raw bytes on a plain socket. */
final class RawDubbo implements AutoCloseable {
    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;

    RawDubbo(String host, int port) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress(host, port), 5000);
        socket.setSoTimeout(10_000);
        out = socket.getOutputStream();
        in = new DataInputStream(socket.getInputStream());
    }

    /** A response as read: header fields and the raw body. */
    record Response(byte flags, byte status, long id, byte[] body) {
        /** The body's text, for error answers (a hessian string) and a rough look at values. */
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    static byte[] header(int flags, int status, long id, int length) {
        return ByteBuffer.allocate(16).putShort((short) 0xdabb).put((byte) flags).put((byte) status).putLong(id)
                .putInt(length).array();
    }

    /** A two-way hessian2 request frame for {@code body}. */
    static byte[] request(long id, int serializationId, byte[] body) {
        return concat(header(0x80 | 0x40 | serializationId, 0, id, body.length), body);
    }

    /** A hessian2 request body: the head strings, the values given, then the attachments. */
    static byte[] body(String path, String method, String desc, Map<String, String> attachments, Object... args)
            throws IOException {
        return body(out -> {
            for (Object a : args) {
                out.writeObject(a);
            }
        }, path, method, desc, attachments);
    }

    interface Values {
        void write(Hessian2Output out) throws IOException;
    }

    static byte[] body(Values args, String path, String method, String desc, Map<String, String> attachments)
            throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Hessian2Output h = new Hessian2Output(bytes);
        h.writeString("2.0.2");
        h.writeString(path);
        h.writeString("0.0.0");
        h.writeString(method);
        h.writeString(desc);
        args.write(h);
        h.writeObject(new java.util.HashMap<>(attachments));
        h.flush();
        return bytes.toByteArray();
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] all = new byte[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    Response read() throws IOException {
        byte[] header = new byte[16];
        in.readFully(header);
        ByteBuffer b = ByteBuffer.wrap(header);
        if (b.getShort() != (short) 0xdabb) {
            throw new IOException("response without dubbo magic");
        }
        byte flags = b.get();
        byte status = b.get();
        long id = b.getLong();
        byte[] body = new byte[b.getInt()];
        in.readFully(body);
        return new Response(flags, status, id, body);
    }

    /** Whether the provider closed the connection (end of stream) within the socket timeout. */
    boolean closedByPeer() throws IOException {
        try {
            InputStream s = socket.getInputStream();
            while (true) {
                if (s.read() < 0) {
                    return true;
                }
            }
        } catch (EOFException e) {
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
