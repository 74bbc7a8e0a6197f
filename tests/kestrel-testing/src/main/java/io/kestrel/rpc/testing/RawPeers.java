package io.kestrel.rpc.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;

/**
 * Hostile peers over raw sockets, as the shared attack suites write them against any port (an RPC port, the web
 * console): sockets that soon stop reading, sockets from another loopback address (a host of their own for
 * per-host limits), writers that run until the port closes the connection, and a wait for that close.
 */
public final class RawPeers {
    /** What a writer thread does until the connection is closed. */
    public interface Writes {
        void run() throws IOException;
    }

    private RawPeers() {
    }

    /** A socket to 127.0.0.1:{@code port} with a small receive window, as a peer that stopped reading soon shows. */
    public static Socket attacker(int port) throws IOException {
        Socket s = new Socket();
        s.setReceiveBufferSize(4096);
        s.connect(new InetSocketAddress("127.0.0.1", port));
        return s;
    }

    /** A socket to 127.0.0.1:{@code port} from {@code localAddress} (e.g. 127.0.0.2: another host to per-host limits). */
    public static Socket from(String localAddress, int port) throws IOException {
        Socket s = new Socket();
        s.bind(new InetSocketAddress(localAddress, 0));
        s.connect(new InetSocketAddress("127.0.0.1", port));
        return s;
    }

    /** Runs {@code writes} on a daemon thread that ends when the connection is closed (the expected end). */
    public static Thread untilClosed(String name, Writes writes) {
        Thread t = new Thread(() -> {
            try {
                writes.run();
            } catch (IOException closed) {
                // the expected end
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /**
     * Whether the other end closes {@code s} within {@code within}: reads (and drops) what arrives until the end
     * of the stream or a reset. False if it is still open then.
     */
    public static boolean closedWithin(Socket s, Duration within) throws IOException {
        long end = System.nanoTime() + within.toNanos();
        InputStream in = s.getInputStream();
        byte[] drop = new byte[8192];
        while (true) {
            long left = end - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            s.setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, left / 1_000_000)));
            try {
                if (in.read(drop) < 0) {
                    return true;
                }
            } catch (SocketTimeoutException stillOpen) {
                return false;
            } catch (IOException reset) {
                return true;
            }
        }
    }
}
