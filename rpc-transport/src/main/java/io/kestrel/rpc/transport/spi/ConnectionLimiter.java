package io.kestrel.rpc.transport.spi;

import io.netty.channel.Channel;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Caps a provider's open connections, in all and per remote address. A connection over a cap is
 * closed as soon as it is accepted; refusals are logged at most once per ten seconds, with how many
 * there were. One per server; thread-safe.
 */
public final class ConnectionLimiter {
    private static final Logger log = LoggerFactory.getLogger(ConnectionLimiter.class);
    private static final long LOG_EVERY_NANOS = 10_000_000_000L;

    private final int max;
    private final int maxPerHost;
    private final AtomicInteger open = new AtomicInteger();
    private final ConcurrentHashMap<InetAddress, Integer> perHost = new ConcurrentHashMap<>();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong lastLog = new AtomicLong(System.nanoTime() - LOG_EVERY_NANOS);
    private final String owner;
    private final String settingPrefix;

    public ConnectionLimiter(int max, int maxPerHost) {
        this(max, maxPerHost, "the provider", "");
    }

    /**
     * @param owner who refuses, as log lines name it ("the provider")
     * @param settingPrefix what the settings' names start with in log lines ("" or "rpc.console.")
     */
    public ConnectionLimiter(int max, int maxPerHost, String owner, String settingPrefix) {
        this.max = max;
        this.maxPerHost = maxPerHost;
        this.owner = owner;
        this.settingPrefix = settingPrefix;
    }

    /**
     * Counts a newly accepted connection, or refuses it (the caller closes it).
     *
     * @return false when a cap is reached
     */
    public boolean admit(Channel ch) {
        InetAddress host = ch.remoteAddress() instanceof InetSocketAddress a ? a.getAddress() : null;
        if (open.incrementAndGet() > max) {
            open.decrementAndGet();
            refuse(ch, owner + " has " + max + " connections open (" + settingPrefix + "max-connections)");
            return false;
        }
        if (host != null) {
            boolean[] fits = {true};
            perHost.compute(host, (h, n) -> {
                int count = n == null ? 0 : n;
                fits[0] = count < maxPerHost;
                return fits[0] ? count + 1 : n;
            });
            if (!fits[0]) {
                open.decrementAndGet();
                refuse(ch, host.getHostAddress() + " has " + maxPerHost + " connections open (" + settingPrefix
                        + "max-connections-per-host)");
                return false;
            }
        }
        ch.closeFuture().addListener(f -> {
            open.decrementAndGet();
            if (host != null) {
                perHost.computeIfPresent(host, (h, n) -> n <= 1 ? null : n - 1);
            }
        });
        return true;
    }

    /** Connections refused so far. */
    public long refused() {
        return refused.get();
    }

    private void refuse(Channel ch, String why) {
        long count = refused.incrementAndGet();
        long now = System.nanoTime();
        long last = lastLog.get();
        if (now - last >= LOG_EVERY_NANOS && lastLog.compareAndSet(last, now)) {
            log.warn("Refused connection from {}: {} ({} refused so far)", ch.remoteAddress(), why, count);
        }
    }
}
