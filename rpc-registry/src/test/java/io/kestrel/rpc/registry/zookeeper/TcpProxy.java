package io.kestrel.rpc.registry.zookeeper;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Forwards 127.0.0.1:port to a target port. {@link #kill()} drops every connection and refuses new ones, the
 * way a crashed process or a cut network looks to ZooKeeper: no close-session request is ever sent.
 */
final class TcpProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean killed;

    TcpProxy(int targetPort) throws IOException {
        this(0, targetPort);
    }

    /** A proxy listening on {@code port} again (after {@link #kill()} of the one that had it), to reconnect. */
    static TcpProxy onPort(int port, int targetPort) throws IOException {
        return new TcpProxy(port, targetPort);
    }

    private TcpProxy(int port, int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = new ServerSocket();
        listener.setReuseAddress(true);
        listener.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
        Thread acceptor = new Thread(this::accept, "test-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    String connectString() {
        return "127.0.0.1:" + listener.getLocalPort();
    }

    private void accept() {
        while (!killed) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                sockets.add(client);
                sockets.add(server);
                pump(client, server);
                pump(server, client);
            } catch (IOException e) {
                return; // listener closed by kill()
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[8192];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // connection dropped: end of this direction
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "test-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    void kill() {
        killed = true;
        closeQuietly(listener);
        sockets.forEach(TcpProxy::closeQuietly);
    }

    @Override
    public void close() {
        kill();
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // already closed
        }
    }
}
