package io.kestrel.rpc.transport;

import java.util.concurrent.atomic.LongAdder;

/**
 * Bytes and frames moved on the wire, counted where bytes meet the socket. Cumulative; shared by
 * every connection of one client transport or server. Thread-safe.
 */
public final class TransportCounters {
    final LongAdder bytesWritten = new LongAdder();
    final LongAdder bytesRead = new LongAdder();
    final LongAdder framesWritten = new LongAdder();
    final LongAdder framesRead = new LongAdder();
    final LongAdder connectionsOpened = new LongAdder();

    public long bytesWritten() {
        return bytesWritten.sum();
    }

    public long bytesRead() {
        return bytesRead.sum();
    }

    public long framesWritten() {
        return framesWritten.sum();
    }

    public long framesRead() {
        return framesRead.sum();
    }

    /** TCP connections opened (client) or accepted (server). */
    public long connectionsOpened() {
        return connectionsOpened.sum();
    }

    public void addBytesWritten(long n) {
        bytesWritten.add(n);
    }

    public void addBytesRead(long n) {
        bytesRead.add(n);
    }

    public void frameWritten() {
        framesWritten.increment();
    }

    public void frameRead() {
        framesRead.increment();
    }

    public void connectionOpened() {
        connectionsOpened.increment();
    }

    @Override
    public String toString() {
        return "TransportCounters{written=" + bytesWritten() + "B/" + framesWritten() + " frames, read=" + bytesRead()
                + "B/" + framesRead() + " frames, connections=" + connectionsOpened() + "}";
    }
}
