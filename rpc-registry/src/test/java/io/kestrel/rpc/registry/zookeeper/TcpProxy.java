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
 * {@link #blackhole()} is a partition instead: connections stay open and new ones are accepted, but no byte gets
 * through either way, so clients see timeouts rather than refusals; {@link #heal()} drops those connections and
 * forwards again.
 */
final class TcpProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean killed;
    private volatile boolean blackholed;

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
                if (blackholed) {
                    sockets.add(client);
                    pump(client, null); // read and drop
                    continue;
                }
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
            try (InputStream in = from.getInputStream();
                    OutputStream out = to == null ? OutputStream.nullOutputStream() : to.getOutputStream()) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    if (to == null || blackholed) {
                        continue; // partitioned: the bytes are lost
                    }
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // connection dropped: end of this direction
            } finally {
                closeQuietly(from);
                if (to != null) {
                    closeQuietly(to);
                }
            }
        }, "test-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    /** From now on nothing gets through; connections stay open and new ones are accepted. */
    void blackhole() {
        blackholed = true;
    }

    /** Ends the partition: the connections that lost bytes are dropped, new ones are forwarded. */
    void heal() {
        List<Socket> partitioned = List.copyOf(sockets);
        sockets.removeAll(partitioned);
        partitioned.forEach(TcpProxy::closeQuietly); // closed first: none of them forwards a torn stream
        blackholed = false;
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
