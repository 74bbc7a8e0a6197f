package io.kestrel.rpc.registry.embedded;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.client.HostProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The address a registry's ZooKeeper client connects to, checked before every connection attempt, reconnects
 * included: it is given the embedded server's address only once the server there proves it holds the
 * credentials this client authenticates with ({@link EmbeddedAccess#proves}). Otherwise, say while a squatter
 * holds the port after the host ended, or while another process takes over hosting with new credentials, it is
 * given an address where connecting fails at once, and the client keeps trying: it never talks to a server
 * that is not its own. A refusal is logged at most once a minute.
 */
final class EmbeddedHostProvider implements HostProvider {
    private static final Logger log = LoggerFactory.getLogger(EmbeddedHostProvider.class);
    /** Connecting to port 0 is refused at once. */
    private static final InetSocketAddress NOWHERE = new InetSocketAddress(EmbeddedHosting.HOST, 0);
    private static final long PROOF_TIMEOUT_MS = 2_000;
    private static final long LOG_INTERVAL_NS = 60_000_000_000L;
    private static final AtomicLong lastLogged = new AtomicLong(System.nanoTime() - LOG_INTERVAL_NS);

    private final String host;
    private final int port;
    private final EmbeddedCredentials credentials;
    private volatile boolean refused;

    /** @param credentials those the client's handle authenticates with */
    EmbeddedHostProvider(String connectString, EmbeddedCredentials credentials) {
        int colon = connectString.lastIndexOf(':');
        this.host = connectString.substring(0, colon);
        this.port = Integer.parseInt(connectString.substring(colon + 1));
        this.credentials = credentials;
    }

    @Override
    public int size() {
        return 1;
    }

    @Override
    public InetSocketAddress next(long spinDelay) {
        if (refused && spinDelay > 0) {
            pause(spinDelay);
        }
        String why;
        if (ZooKeeperProbe.probe(host, port).kind() != ZooKeeperProbe.Kind.ZOOKEEPER) {
            why = null; // nothing (or nothing ZooKeeper) answers: no connection can succeed anyway
        } else {
            try {
                if (EmbeddedAccess.proves(host + ":" + port, credentials, PROOF_TIMEOUT_MS)) {
                    refused = false;
                    return new InetSocketAddress(host, port);
                }
                why = "it does not prove that it is the server this client joined";
            } catch (IOException e) {
                why = e.getMessage();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                why = "interrupted";
            }
        }
        refused = true;
        long now = System.nanoTime();
        long last = lastLogged.get();
        if (why != null && now - last >= LOG_INTERVAL_NS && lastLogged.compareAndSet(last, now)) {
            log.warn("Embedded ZooKeeper at {}:{}: not reconnecting to the server there now: {} (a process that "
                    + "is not this user's Kestrel may hold the port; waiting for this user's embedded ZooKeeper)",
                    host, port, why);
        }
        return NOWHERE;
    }

    @Override
    public void onConnected() {
    }

    @Override
    public boolean updateServerList(Collection<InetSocketAddress> serverAddresses, InetSocketAddress current) {
        return false;
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
