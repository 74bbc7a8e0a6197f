package io.kestrel.rpc.registry.zookeeper;

import io.kestrel.rpc.api.internal.WarnWindows;
import java.util.Collection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a registry tells its operator about its own records while ZooKeeper comes and goes: that they stay while
 * the session lives (connection suspended), that they are gone (session lost: new consumers cannot find this
 * process), that each is back (created again in the new session), and Curator's background errors, rate-limited
 * so a partition does not write a line (and a stack trace) per retry. Logs under {@link ZooKeeperRegistry}'s
 * logger. Thread-safe.
 */
final class RegistrationLog {
    /** System property: milliseconds between two lines of the same ZooKeeper background error (default 30000). */
    static final String INTERVAL_PROPERTY = "kestrel.rpc.registry.errorIntervalMillis";
    private static final long DEFAULT_INTERVAL_MILLIS = 30_000;
    /** Error messages come from Curator, not from the wire; a few dozen kinds at most. */
    private static final int MAX_KEYS = 64;

    private final Logger log;
    private final String address;
    private final long sessionTimeoutMs;
    private final WarnWindows errors;

    RegistrationLog(String address, long sessionTimeoutMs) {
        this(address, sessionTimeoutMs, LoggerFactory.getLogger(ZooKeeperRegistry.class));
    }

    /** @param log where the lines go (tests record them) */
    RegistrationLog(String address, long sessionTimeoutMs, Logger log) {
        this.log = log;
        this.address = address;
        this.sessionTimeoutMs = sessionTimeoutMs;
        this.errors = new WarnWindows(Long.getLong(INTERVAL_PROPERTY, DEFAULT_INTERVAL_MILLIS) * 1_000_000L, MAX_KEYS);
    }

    /** The connection is suspended; {@code registered} records stay while the session lives. */
    void suspended(int registered) {
        log.warn("ZooKeeper {} connection suspended; keeping the last known providers{}", address, registered == 0 ? ""
                : "; this process's " + registered + " provider record(s) stay registered while the session lives"
                        + " (up to " + sessionTimeoutMs + " ms)");
    }

    /** The session ended: the records of {@code providers} are gone from the registry until it answers again. */
    void lost(Collection<String> providers) {
        if (providers.isEmpty()) {
            log.warn("ZooKeeper {} session lost; keeping the last known providers and reconnecting", address);
            return;
        }
        log.warn("ZooKeeper {} session lost: this process is no longer registered; its {} provider record(s) are"
                + " gone, so consumers that do not know it yet cannot find it (connected ones keep calling). They are"
                + " registered again once ZooKeeper answers: {}", address, providers.size(), providers);
    }

    /** The record of {@code provider} was created again after its session was lost. */
    void restored(String provider) {
        log.info("Provider {} registered again in {} (new session)", provider, address);
    }

    /** A background error Curator reports; at most one line per kind per interval. */
    void backgroundError(String message, Throwable e) {
        String key = message + (e == null ? "" : " " + e.getClass().getName());
        String skipped = errors.admit(key, System.nanoTime());
        if (skipped == null) {
            return;
        }
        log.warn("ZooKeeper registry {}: {} ({}){}", address, message, e, skipped);
        if (log.isDebugEnabled()) {
            log.debug("ZooKeeper registry {}: {}", address, message, e);
        }
    }
}
