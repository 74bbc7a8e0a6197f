package io.kestrel.rpc.core;

import io.kestrel.rpc.transport.TransportCounters;

/**
 * Cumulative wire counters of one runtime: what its client connections and/or its server wrote and
 * read, counted where bytes meet the socket.
 */
public record TransportStats(long bytesWritten, long bytesRead, long framesWritten, long framesRead,
        long connectionsOpened) {

    /** The sum of this and {@code other}, counter by counter. */
    public TransportStats plus(TransportStats other) {
        return new TransportStats(bytesWritten + other.bytesWritten, bytesRead + other.bytesRead,
                framesWritten + other.framesWritten, framesRead + other.framesRead,
                connectionsOpened + other.connectionsOpened);
    }

    /** The counters of {@code c}, zeros when it is null (nothing exported, or no connection yet). */
    static TransportStats of(TransportCounters c) {
        return c == null ? new TransportStats(0, 0, 0, 0, 0) : new TransportStats(c.bytesWritten(), c.bytesRead(),
                c.framesWritten(), c.framesRead(), c.connectionsOpened());
    }
}
