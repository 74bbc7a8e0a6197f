package io.kestrel.rpc.spring;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy on loopback that forwards everything to a target and, for the consumer-to-provider
 * direction, parses frames (18-byte header: magic(2) ver(1) flags(1) serialization(1) status(1)
 * request id(8) body length(4)) and records the serialization id of every call request.
 */
final class FrameRecordingProxy implements AutoCloseable {
    private static final int HEADER = 18;
    private static final int FLAG_REQUEST = 0x01;
    private static final int FLAG_EVENT = 0x04;

    private final ServerSocket server;
    private final int targetPort;
    private final List<Byte> requestSerializationIds = new CopyOnWriteArrayList<>();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    FrameRecordingProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptLoop, "frame-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** "127.0.0.1:port" of the proxy. */
    String address() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    /** Serialization ids of the call requests seen so far, in order. */
    List<Byte> requestSerializationIds() {
        return List.copyOf(requestSerializationIds);
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket();
                upstream.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 3000);
                sockets.add(client);
                sockets.add(upstream);
                start("frame-proxy-up", client, upstream,
                        () -> pumpRequests(client.getInputStream(), upstream.getOutputStream()));
                start("frame-proxy-down", client, upstream,
                        () -> upstream.getInputStream().transferTo(client.getOutputStream()));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    /** Copies consumer bytes upstream frame by frame, recording each request's serialization id. */
    private Object pumpRequests(InputStream in, OutputStream out) throws IOException {
        byte[] header = new byte[HEADER];
        while (true) {
            if (in.readNBytes(header, 0, HEADER) < HEADER) {
                return null;
            }
            int flags = header[3];
            if ((flags & FLAG_REQUEST) != 0 && (flags & FLAG_EVENT) == 0) {
                requestSerializationIds.add(header[4]);
            }
            int length = ((header[14] & 0xFF) << 24) | ((header[15] & 0xFF) << 16) | ((header[16] & 0xFF) << 8)
                    | (header[17] & 0xFF);
            byte[] body = in.readNBytes(length);
            out.write(header);
            out.write(body);
            out.flush();
        }
    }

    private interface IoTask {
        Object run() throws IOException;
    }

    private void start(String name, Socket a, Socket b, IoTask task) {
        Thread t = new Thread(() -> {
            try {
                task.run();
            } catch (IOException e) {
                // connection closed
            } finally {
                closeQuietly(a);
                closeQuietly(b);
            }
        }, name);
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        sockets.forEach(FrameRecordingProxy::closeQuietly);
    }
}
