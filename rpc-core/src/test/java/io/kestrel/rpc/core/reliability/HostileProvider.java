package io.kestrel.rpc.core.reliability;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A provider that lies: a raw server socket on 127.0.0.1 speaking just enough of the native protocol (or, made by
 * {@link #dubbo}, of Apache Dubbo's) to be connected to (it answers the consumer's handshake heartbeat, with the
 * facts it chooses) and then answering every call the way its {@link Behaviour} says. The hostile peer of consumer tests: the bytes
 * are written here by hand, as an attacker would, not by the framework's encoder. One thread per
 * connection; {@link #close} ends them all.
 */
final class HostileProvider implements AutoCloseable {
    static final int STATUS_OK = 20;
    static final int STATUS_SERVICE_ERROR = 70;
    private static final int HEADER = 18;
    private static final int DUBBO_HEADER = 16;

    /** How every call is answered. */
    enum Behaviour {
        /** Never answers a call (heartbeats only). */
        SILENT,
        /** Announces an 8,000,000-byte answer, sends half of it at once, then the rest a kilobyte at a time, forever. */
        TRICKLE_HALF_FRAME,
        /** An exception whose message is 4 MB. */
        HUGE_ERROR,
        /** An exception with the bytes given as its serialized form (e.g. a deep cause chain). */
        SERIALIZED_ERROR,
        /** A null result: the call succeeds. */
        NULL_RESULT,
        /** Announces a 64 MiB answer, over any payload limit, and sends all of it as fast as it can. */
        OVERSIZED
    }

    private final ServerSocket server;
    private final Behaviour behaviour;
    private final boolean dubbo;
    private final byte[] handshake;
    private final byte[] errorBytes;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    /**
     * @param facts what the handshake answer says, per service key (empty: nothing)
     * @param errorBytes the serialized exception of {@link Behaviour#SERIALIZED_ERROR} (else unused)
     */
    HostileProvider(Behaviour behaviour, Map<String, Map<String, String>> facts, byte[] errorBytes) throws IOException {
        this(behaviour, facts, errorBytes, false);
    }

    private HostileProvider(Behaviour behaviour, Map<String, Map<String, String>> facts, byte[] errorBytes,
            boolean dubbo) throws IOException {
        this.dubbo = dubbo;
        this.behaviour = behaviour;
        this.errorBytes = errorBytes;
        this.handshake = handshakeBody(facts);
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "hostile-" + behaviour + "-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    HostileProvider(Behaviour behaviour) throws IOException {
        this(behaviour, Map.of(), null);
    }

    /** A provider speaking the dubbo protocol ({@link Behaviour#TRICKLE_HALF_FRAME} or {@link Behaviour#OVERSIZED}). */
    static HostileProvider dubbo(Behaviour behaviour) throws IOException {
        return new HostileProvider(behaviour, Map.of(), null, true);
    }

    int port() {
        return server.getLocalPort();
    }

    private void accept() {
        while (!closed) {
            try {
                Socket s = server.accept();
                sockets.add(s);
                Thread t = new Thread(() -> serve(s), "hostile-" + behaviour + "-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            DataInputStream in = new DataInputStream(s.getInputStream());
            OutputStream out = s.getOutputStream();
            while (!closed) {
                byte[] header = new byte[dubbo ? DUBBO_HEADER : HEADER];
                in.readFully(header);
                ByteBuffer h = ByteBuffer.wrap(header);
                // dubbo's flags (request 0x80, two-way 0x40, event 0x20) read as the native ones (0x01, 0x02, 0x04)
                int flags = dubbo ? (header[2] & 0x80) >> 7 | (header[2] & 0x40) >> 5 | (header[2] & 0x20) >> 3
                        : header[3];
                byte serialization = dubbo ? (byte) (header[2] & 0x1F) : header[4];
                long requestId = h.getLong(dubbo ? 4 : 6);
                int length = h.getInt(dubbo ? 12 : 14);
                if (length < 0 || length > (1 << 20)) {
                    return; // no consumer request of these tests is that large
                }
                in.readFully(new byte[length]);
                if ((flags & 0x04) != 0) { // events: answer two-way heartbeats (natively with the handshake facts)
                    if ((flags & 0x02) != 0) {
                        write(out, dubbo ? dubboFrame(0x20 | serialization, requestId, new byte[] {'N'})
                                : frame(0x04, serialization, STATUS_OK, requestId, handshake));
                    }
                    continue;
                }
                answer(out, serialization, requestId);
            }
        } catch (IOException | InterruptedException e) {
            // the consumer closed the connection, or this provider was closed
        }
    }

    private void answer(OutputStream out, byte serialization, long requestId) throws IOException, InterruptedException {
        switch (behaviour) {
            case SILENT -> {
            }
            case NULL_RESULT -> write(out, frame(0, serialization, STATUS_OK, requestId, new byte[] {0}));
            case HUGE_ERROR -> {
                ByteArrayOutputStream body = new ByteArrayOutputStream();
                string(body, IllegalStateException.class.getName());
                string(body, "x".repeat(4 << 20));
                write(out, frame(0, serialization, STATUS_SERVICE_ERROR, requestId, body.toByteArray()));
            }
            case SERIALIZED_ERROR -> {
                ByteArrayOutputStream body = new ByteArrayOutputStream();
                string(body, IllegalStateException.class.getName());
                string(body, "deep");
                body.writeBytes(errorBytes);
                write(out, frame(0, serialization, STATUS_SERVICE_ERROR, requestId, body.toByteArray()));
            }
            case OVERSIZED -> {
                synchronized (out) {
                    out.write(header(0, serialization, STATUS_OK, requestId, 64 << 20));
                    byte[] chunk = new byte[1 << 20];
                    for (int i = 0; i < 64 && !closed; i++) {
                        out.write(chunk);
                    }
                    out.flush();
                }
            }
            case TRICKLE_HALF_FRAME -> {
                synchronized (out) { // the frame is never finished: nothing else may be written into it
                    out.write(header(0, serialization, STATUS_OK, requestId, 8_000_000));
                    out.write(new byte[4_000_000]);
                    byte[] chunk = new byte[1024];
                    while (!closed) {
                        out.write(chunk);
                        out.flush();
                        Thread.sleep(20); // the trickle itself: a frame that never completes, by design
                    }
                }
            }
        }
    }

    private static void write(OutputStream out, byte[] frame) throws IOException {
        synchronized (out) {
            out.write(frame);
            out.flush();
        }
    }

    private byte[] header(int flags, byte serialization, int status, long requestId, int bodyLength) {
        if (dubbo) { // a response: the request's serialization id as its flags
            return ByteBuffer.allocate(DUBBO_HEADER).putShort((short) 0xdabb).put(serialization).put((byte) status)
                    .putLong(requestId).putInt(bodyLength).array();
        }
        return ByteBuffer.allocate(HEADER).putShort((short) 0x4B52).put((byte) 1).put((byte) flags).put(serialization)
                .put((byte) status).putLong(requestId).putInt(bodyLength).array();
    }

    /** A dubbo frame with status OK and {@code flags} (event, serialization) in its third byte. */
    private static byte[] dubboFrame(int flags, long requestId, byte[] body) {
        return ByteBuffer.allocate(DUBBO_HEADER + body.length).putShort((short) 0xdabb).put((byte) flags)
                .put((byte) STATUS_OK).putLong(requestId).putInt(body.length).put(body).array();
    }

    private byte[] frame(int flags, byte serialization, int status, long requestId, byte[] body) {
        ByteArrayOutputStream f = new ByteArrayOutputStream(HEADER + body.length);
        f.writeBytes(header(flags, serialization, status, requestId, body.length));
        f.writeBytes(body);
        return f.toByteArray();
    }

    /** The handshake answer's body: services, each with its attributes (see the transport's Handshake). */
    private static byte[] handshakeBody(Map<String, Map<String, String>> facts) {
        if (facts.isEmpty()) {
            return new byte[0];
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        varint(body, facts.size());
        facts.forEach((key, attributes) -> {
            string(body, key);
            varint(body, attributes.size());
            attributes.forEach((name, value) -> {
                string(body, name);
                string(body, value);
            });
        });
        return body.toByteArray();
    }

    private static void string(ByteArrayOutputStream out, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        varint(out, b.length);
        out.writeBytes(b);
    }

    private static void varint(ByteArrayOutputStream out, int value) {
        while ((value & ~0x7F) != 0) {
            out.write((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        out.write(value);
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        for (Socket s : sockets) {
            s.close();
        }
    }
}
