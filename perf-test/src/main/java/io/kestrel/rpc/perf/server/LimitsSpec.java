package io.kestrel.rpc.perf.server;

import io.kestrel.rpc.api.config.ServerLimits;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * A provider's {@link ServerLimits} as one command-line word, {@code name=value} pairs separated by
 * commas, the names being the {@code <rpc:protocol>} attributes: {@code max-connections},
 * {@code max-connections-per-host}, {@code calls-per-connection}, {@code memory-budget} (bytes),
 * {@code frame-timeout-ms}, {@code write-stall-timeout-ms}, {@code write-buffer} (bytes),
 * {@code stream-idle-timeout-ms} (0: off). What is not named keeps its default; "" is the defaults.
 */
public final class LimitsSpec {
    private final Map<String, Long> values = new LinkedHashMap<>();

    /** Builds a spec; {@link #toString()} is the command-line word. */
    public LimitsSpec set(String name, long value) {
        apply(ServerLimits.builder(), name, value); // fails on an unknown name or a refused value
        values.put(name, value);
        return this;
    }

    @Override
    public String toString() {
        StringJoiner j = new StringJoiner(",");
        values.forEach((k, v) -> j.add(k + "=" + v));
        return j.toString();
    }

    /**
     * Reads a spec.
     *
     * @throws IllegalArgumentException naming the pair it cannot use
     */
    public static ServerLimits parse(String spec) {
        ServerLimits.Builder b = ServerLimits.builder();
        if (spec == null || spec.isBlank()) {
            return b.build();
        }
        for (String pair : spec.split(",")) {
            int eq = pair.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("limits: expected name=value, was '" + pair + "'");
            }
            long value;
            try {
                value = Long.parseLong(pair.substring(eq + 1).trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("limits: not a number in '" + pair + "'");
            }
            apply(b, pair.substring(0, eq).trim().toLowerCase(Locale.ROOT), value);
        }
        return b.build();
    }

    private static void apply(ServerLimits.Builder b, String name, long value) {
        switch (name) {
            case "max-connections" -> b.maxConnections(Math.toIntExact(value));
            case "max-connections-per-host" -> b.maxConnectionsPerHost(Math.toIntExact(value));
            case "calls-per-connection" -> b.callsPerConnection(Math.toIntExact(value));
            case "memory-budget" -> b.memoryBudgetBytes(value);
            case "frame-timeout-ms" -> b.frameTimeout(Duration.ofMillis(value));
            case "write-stall-timeout-ms" -> b.writeStallTimeout(Duration.ofMillis(value));
            case "write-buffer" -> b.writeBufferBytes(Math.toIntExact(value));
            case "stream-idle-timeout-ms" -> b.streamIdleTimeout(Duration.ofMillis(value));
            default -> throw new IllegalArgumentException("limits: unknown setting '" + name + "'");
        }
    }
}
