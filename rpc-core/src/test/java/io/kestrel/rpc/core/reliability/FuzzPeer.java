package io.kestrel.rpc.core.reliability;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * One raw loopback connection of the fuzzer: a buffered writer, and a daemon reader thread that
 * drains (and counts) every response so the server's writes never block on us.
 */
final class FuzzPeer implements AutoCloseable {
    /** Totals across all peers of one run. */
    static final class Stats {
        final AtomicLong responses = new AtomicLong();
        final AtomicLong responseBytes = new AtomicLong();
        final AtomicLongArray byStatus = new AtomicLongArray(256);
        final AtomicLong malformedResponses = new AtomicLong();
        /** Connections the server ended although this side had not sent a stream-breaking frame yet. */
        final AtomicLong unexpectedCloses = new AtomicLong();
        volatile String lastUnexpected = "none";
    }

    private final Socket socket;
    private final OutputStream out;
    private final Thread reader;
    private final Stats stats;
    private volatile boolean ending;
    private volatile long lastPong;
    private long syncs;

    FuzzPeer(int port, Stats stats, int index) throws IOException {
        this.stats = stats;
        socket = new Socket("127.0.0.1", port);
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(10_000);
        out = new BufferedOutputStream(socket.getOutputStream(), 32 * 1024);
        DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 32 * 1024));
        reader = new Thread(() -> drain(in), "fuzz-reader-" + index);
        reader.setDaemon(true);
        reader.start();
    }

    private void drain(DataInputStream in) {
        byte[] skip = new byte[8192];
        try {
            while (true) {
                int magic = in.readUnsignedShort();
                in.readUnsignedByte(); // version
                int flags = in.readUnsignedByte();
                in.readUnsignedByte(); // serialization id
                int status = in.readUnsignedByte();
                long requestId = in.readLong();
                int length = in.readInt();
                if (magic != FrameBytes.MAGIC || length < 0) {
                    stats.malformedResponses.incrementAndGet();
                    return;
                }
                for (int left = length; left > 0; ) {
                    int n = in.read(skip, 0, Math.min(left, skip.length));
                    if (n < 0) {
                        throw new java.io.EOFException("response body cut short");
                    }
                    left -= n;
                }
                stats.responses.incrementAndGet();
                stats.responseBytes.addAndGet(FrameBytes.HEADER_BYTES + length);
                stats.byStatus.incrementAndGet(status);
                if ((flags & 0x04) != 0 && (requestId & SYNC_MASK) == SYNC_MARK) {
                    lastPong = requestId;
                }
            }
        } catch (IOException e) {
            if (!ending) {
                stats.unexpectedCloses.incrementAndGet();
                stats.lastUnexpected = e.toString();
            }
        }
    }

    private static final long SYNC_MARK = 0x5359_4E43_0000_0000L;
    private static final long SYNC_MASK = 0xFFFF_FFFF_0000_0000L;

    /**
     * Sends a heartbeat and waits (bounded) for its answer: the server has then decoded everything
     * sent before it, so closing the connection afterwards loses no frame to a reset.
     *
     * @return whether the answer came within {@code timeoutMs}
     */
    boolean sync(long timeoutMs) throws IOException {
        long id = SYNC_MARK | ++syncs;
        FrameBytes ping = new FrameBytes().header(1, 0x07, 0, 0, id, 0);
        out.write(ping.array(), 0, ping.size());
        out.flush();
        long deadline = System.nanoTime() + timeoutMs * 1_000_000;
        while (lastPong != id) {
            if (System.nanoTime() > deadline || !reader.isAlive()) {
                return false;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(200_000);
        }
        return true;
    }

    void write(byte[] bytes, int length) throws IOException {
        out.write(bytes, 0, length);
    }

    void flush() throws IOException {
        out.flush();
    }

    /** Marks the connection as about to be broken by this side (a stream-breaking frame follows). */
    void ending() {
        ending = true;
    }

    @Override
    public void close() {
        ending = true;
        try {
            out.flush();
        } catch (IOException ignored) {
            // the server may already have closed it
        }
        try {
            socket.close();
        } catch (IOException ignored) {
            // nothing to do
        }
        try {
            reader.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
