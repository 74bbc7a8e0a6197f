package io.kestrel.rpc.core;

import io.kestrel.rpc.transport.TransportCounters;

/**
 * Cumulative wire counters of one runtime: what its client connections and/or its server wrote and
 * read, counted where bytes meet the socket.
 */
public record TransportStats(long bytesWritten, long bytesRead, long framesWritten, long framesRead,
        long connectionsOpened) {

    static TransportStats sum(TransportCounters a, TransportCounters b) {
        long bw = 0;
        long br = 0;
        long fw = 0;
        long fr = 0;
        long conns = 0;
        for (TransportCounters c : new TransportCounters[] {a, b}) {
            if (c != null) {
                bw += c.bytesWritten();
                br += c.bytesRead();
                fw += c.framesWritten();
                fr += c.framesRead();
                conns += c.connectionsOpened();
            }
        }
        return new TransportStats(bw, br, fw, fr, conns);
    }
}
