package io.kestrel.rpc.perf.soak.attack;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;

/**
 * Rounds of {@link AttackPlan#FLOOD_CONNECTIONS} connections opened at once, more than the provider's
 * {@code max-connections-per-host}; each round holds them for {@link AttackPlan#FLOOD_HOLD}, counts
 * those the provider closed (refused), closes the rest and pauses. The connections come from
 * 127.0.0.2 where the system allows binding to it (Linux routes all of 127/8 to loopback): the flood
 * then fills its own host's quota, not the one of the well-behaved client and the other attacks on
 * 127.0.0.1.
 */
final class FloodAttack extends Attack {
    private final InetAddress source;

    FloodAttack(AttackTarget target) {
        super(AttackKind.FLOOD, target);
        this.source = ownSource(target);
    }

    private static InetAddress ownSource(AttackTarget target) {
        try (Socket probe = new Socket()) {
            InetAddress other = InetAddress.getByName("127.0.0.2");
            probe.bind(new InetSocketAddress(other, 0));
            probe.connect(target.address(), 2_000);
            return other;
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    void cycle() throws InterruptedException {
        List<Socket> round = new ArrayList<>(AttackPlan.FLOOD_CONNECTIONS);
        long openedAt = System.nanoTime();
        for (int i = 0; i < AttackPlan.FLOOD_CONNECTIONS && running; i++) {
            try {
                Socket s = connect(false, source);
                s.setSoTimeout(1);
                round.add(s);
            } catch (IOException e) {
                error(e);
            }
        }
        Thread.sleep(AttackPlan.FLOOD_HOLD.toMillis());
        for (Socket s : round) {
            if (isClosed(s)) {
                closedByProvider(s, openedAt);
            } else {
                release(s);
            }
        }
        Thread.sleep(AttackPlan.FLOOD_PAUSE.toMillis());
    }

    private static boolean isClosed(Socket s) {
        try {
            InputStream in = s.getInputStream();
            return in.read() < 0; // the provider sends nothing on a connection that sent nothing
        } catch (SocketTimeoutException open) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    @Override
    boolean met(AttackResult r) {
        return r.closedByProvider() > 0;
    }

    @Override
    String note() {
        return AttackPlan.FLOOD_CONNECTIONS + " connections per round from " + (source == null
                ? "127.0.0.1 (127.0.0.2 not usable here: the flood shares the other clients' per-host quota)"
                : "127.0.0.2") + ", held " + AttackPlan.FLOOD_HOLD.toMillis() + " ms";
    }
}
