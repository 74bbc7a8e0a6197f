package io.kestrel.rpc.core;

/**
 * Cumulative wire counters of one runtime: what its client connections (and its server, if it
 * exports services) wrote and read, counted where bytes meet the socket.
 */
public record TransportStats(long bytesWritten, long bytesRead, long framesWritten, long framesRead,
        long connectionsOpened) {
}
