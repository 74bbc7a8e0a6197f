package io.kestrel.rpc.perf.soak.attack;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;

/**
 * {@value #CONNECTIONS} connections (a thread each), each writing the header of a request that announces
 * {@value #ANNOUNCED} bytes and half of them, then one more byte every {@value #PACE_MILLIS} ms, for ever:
 * the provider must neither hold what arrived beyond its budget nor keep the connections; a cut one is
 * reopened.
 */
final class HalfSentAttack extends Attack {
    static final int CONNECTIONS = 64;
    static final int ANNOUNCED = 8 << 20;
    static final long PACE_MILLIS = 250;
    private static final byte[] HALF = new byte[ANNOUNCED / 2];

    private final PortFrames frames;

    HalfSentAttack(AttackTarget target, PortFrames frames) {
        super(AttackKind.HALF_SENT, target);
        this.frames = frames;
    }

    @Override
    int threadCount() {
        return CONNECTIONS;
    }

    @Override
    void cycle() throws IOException {
        Socket s = connect(false, null);
        long openedAt = System.nanoTime();
        try {
            OutputStream out = s.getOutputStream();
            out.write(frames.requestHeader(1, ANNOUNCED));
            out.write(HALF); // blocks while the provider does not read: that is the attack too
            requestWritten(); // a frame half sent, never finished
            while (running) {
                pause(PACE_MILLIS);
                out.write(0);
            }
            release(s);
        } catch (IOException closed) {
            closedByProvider(s, openedAt);
            pause(PACE_MILLIS);
        }
    }

    @Override
    boolean met(AttackResult r) {
        return r.closedByProvider() > 0;
    }

    @Override
    String note() {
        return CONNECTIONS + " connections, " + (ANNOUNCED >> 20) + " MiB announced, half sent, then a byte every "
                + PACE_MILLIS + " ms";
    }
}
