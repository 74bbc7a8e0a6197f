package io.kestrel.rpc.core.internal.consumer;

import io.kestrel.rpc.api.registry.ProviderInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A provider's warm-up as its registry record publishes it: the {@link ProviderInfo#WARMUP} duration and the
 * {@link ProviderInfo#START_TIME}. While {@code uptime < warmup} the weight is
 * {@code max(1, weight * uptime / warmup)} (the formula Apache Dubbo uses), so a provider that has just
 * started gets a small share that grows linearly to its full weight; a weight of 0 stays 0. A start time in
 * the future (clocks of the two hosts apart) counts as uptime 0 until it passes.
 *
 * @param startMillis the provider's start, epoch milliseconds
 * @param warmupMillis the warm-up, at least 1
 */
record Warmup(long startMillis, long warmupMillis) {
    private static final Logger log = LoggerFactory.getLogger(Warmup.class);

    /** The record's warm-up, or null when it publishes none (or an unreadable one, logged once per record). */
    static Warmup of(ProviderInfo provider) {
        String warmup = provider.attribute(ProviderInfo.WARMUP).orElse(null);
        String start = provider.attribute(ProviderInfo.START_TIME).orElse(null);
        if (warmup == null || start == null) {
            return null;
        }
        try {
            long w = Long.parseLong(warmup);
            return w > 0 ? new Warmup(Long.parseLong(start), w) : null;
        } catch (NumberFormatException e) {
            log.warn("Provider {} publishes an unreadable warm-up ({}={}, {}={}); using its full weight",
                    provider.address(), ProviderInfo.WARMUP, warmup, ProviderInfo.START_TIME, start);
            return null;
        }
    }

    /** The weight to use at {@code nowMillis} for a provider of published weight {@code weight}. */
    int weight(int weight, long nowMillis) {
        long uptime = Math.max(0, nowMillis - startMillis);
        if (weight <= 0 || uptime >= warmupMillis) {
            return weight;
        }
        return (int) Math.max(1, weight * uptime / warmupMillis);
    }
}
