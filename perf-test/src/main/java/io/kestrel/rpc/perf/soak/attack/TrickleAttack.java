package io.kestrel.rpc.perf.soak.attack;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * {@link AttackPlan#TRICKLE_CONNECTIONS} connections, each sending the header of a request that
 * announces a body of {@link AttackPlan#UNIT} bytes and 1 KiB of it, then one byte per connection
 * every {@link AttackPlan#TRICKLE_PACE}: the idle timer alone would keep them open for ever. The
 * provider must cut each at its frame timeout; a cut connection is reopened at the next round. One
 * thread serves all of them.
 */
final class TrickleAttack extends Attack {
    private final Socket[] sockets = new Socket[AttackPlan.TRICKLE_CONNECTIONS];
    private final long[] openedAt = new long[AttackPlan.TRICKLE_CONNECTIONS];
    private long nextId = 1;

    TrickleAttack(AttackTarget target) {
        super(AttackKind.TRICKLE, target);
    }

    @Override
    void cycle() throws InterruptedException {
        for (int i = 0; i < sockets.length && running; i++) {
            if (sockets[i] == null) {
                open(i);
            } else if (!trickle(sockets[i])) {
                closedByProvider(sockets[i], openedAt[i]);
                sockets[i] = null;
            }
        }
        Thread.sleep(AttackPlan.TRICKLE_PACE.toMillis());
    }

    private void open(int i) {
        Socket s = null;
        try {
            s = connect(false, null);
            openedAt[i] = System.nanoTime();
            byte[] begun = new byte[RawFrames.HEADER_BYTES + 1024];
            System.arraycopy(RawFrames.requestHeader(target.serializationId(), nextId++, AttackPlan.UNIT, false), 0,
                    begun, 0, RawFrames.HEADER_BYTES);
            s.getOutputStream().write(begun);
            s.setSoTimeout(1);
            requestWritten(); // a frame begun, never finished
            sockets[i] = s;
        } catch (IOException e) {
            if (s != null) {
                closedByProvider(s, openedAt[i]); // refused at once
            } else if (running) {
                error(e);
            }
        }
    }

    /** Drains what the provider sent (a busy answer, if any), then writes one more byte; false once closed. */
    private static boolean trickle(Socket s) {
        try {
            InputStream in = s.getInputStream();
            try {
                while (true) {
                    int available = in.available();
                    if (available > 0) {
                        in.skipNBytes(available);
                    } else if (in.read() < 0) {
                        return false;
                    }
                }
            } catch (SocketTimeoutException stillOpen) {
                // nothing more to read: the connection is open
            }
            s.getOutputStream().write(0);
            return true;
        } catch (IOException closed) {
            return false;
        }
    }

    @Override
    boolean met(AttackResult r) {
        return r.closedByProvider() > 0;
    }

    @Override
    String note() {
        return AttackPlan.TRICKLE_CONNECTIONS + " connections, a byte each every " + AttackPlan.TRICKLE_PACE.toMillis()
                + " ms into a frame announcing " + AttackPlan.UNIT / (1 << 20) + " MiB";
    }
}
