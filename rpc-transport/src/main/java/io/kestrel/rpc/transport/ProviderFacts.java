package io.kestrel.rpc.transport;

import io.kestrel.rpc.transport.internal.Handshake;
import io.kestrel.rpc.transport.internal.HeartbeatHandler;
import io.netty.channel.Channel;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The handshake query of one {@link Connection}: the services its users want facts about (asked for in the
 * heartbeats of every channel) and what the provider answered ({@link Connection#providerFacts()}). Thread-safe.
 */
final class ProviderFacts {
    private final boolean dubbo;
    /** Services whose facts the users of this connection want, each completed once a handshake answered it. */
    private final Map<String, CompletableFuture<Void>> wanted = new ConcurrentHashMap<>();
    private volatile Map<String, Map<String, String>> current;

    /** {@code service} (null: none) is asked for in the first heartbeat; the dubbo protocol has no handshake. */
    ProviderFacts(boolean dubbo, String service) {
        this.dubbo = dubbo;
        if (service != null && !dubbo) {
            wanted.put(service, new CompletableFuture<>());
        }
    }

    /** See {@link Connection#providerFacts()}. */
    Map<String, Map<String, String>> current() {
        return current;
    }

    /** The services to ask for, as the heartbeat handler reads them. */
    Set<String> wanted() {
        return Set.copyOf(wanted.keySet());
    }

    /** See {@link Connection#want}; {@code ch} (null: none yet) is the current channel. */
    CompletableFuture<Void> want(String service, Channel ch) {
        if (dubbo) {
            return CompletableFuture.completedFuture(null);
        }
        boolean[] added = {false};
        CompletableFuture<Void> answered = wanted.computeIfAbsent(service, k -> {
            added[0] = true;
            return new CompletableFuture<>();
        });
        if (added[0] && ch != null) {
            // a channel set later asks for it itself (ConnectionLifecycle's channelActive)
            ch.eventLoop().execute(() -> askMissing(ch));
        }
        return answered;
    }

    /** Has {@code ch}'s heartbeat handler ask for the wanted services it has not asked for yet. */
    static void askMissing(Channel ch) {
        HeartbeatHandler heartbeat = ch.pipeline().get(HeartbeatHandler.class);
        if (heartbeat != null) {
            heartbeat.askMissing();
        }
    }

    /** A handshake answer on the current channel: the first replaces what was known, later ones add to it. */
    void answered(Handshake.Facts facts) {
        Map<String, Map<String, String>> known = current;
        if (facts.first() || known == null) {
            current = facts.services();
        } else {
            Map<String, Map<String, String>> merged = new HashMap<>(known);
            merged.putAll(facts.services());
            current = Collections.unmodifiableMap(merged);
        }
        facts.asked().forEach(k -> wanted.getOrDefault(k, new CompletableFuture<>()).complete(null));
    }
}
