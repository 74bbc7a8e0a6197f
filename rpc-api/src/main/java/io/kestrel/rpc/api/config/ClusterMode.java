package io.kestrel.rpc.api.config;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How a reference treats a failed call ({@code cluster} on {@code <rpc:reference>}). Default
 * {@link #FAILOVER}.
 */
public enum ClusterMode {
    /** A call that certainly did not run is retried on another provider, up to {@code retries} times. */
    FAILOVER,
    /** One attempt; its failure is the call's failure. */
    FAILFAST,
    /** Failures are logged and the call returns null (for calls whose result does not matter). */
    FAILSAFE;

    /** The name used in configuration: "failover", "failfast", "failsafe". */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a configuration value, case-insensitively and trimmed.
     *
     * @throws IllegalArgumentException naming the valid values when {@code name} is none of them
     */
    public static ClusterMode byName(String name) {
        String wanted = name == null ? "" : name.trim();
        for (ClusterMode mode : values()) {
            if (mode.name().equalsIgnoreCase(wanted)) {
                return mode;
            }
        }
        List<String> known = Arrays.stream(values()).map(ClusterMode::configName).toList();
        throw new IllegalArgumentException("unknown cluster mode '" + name + "'; use one of " + String.join(", ", known)
                + io.kestrel.rpc.api.internal.NearestName.suggestion(wanted.toLowerCase(Locale.ROOT), known));
    }

    @Override
    public String toString() {
        return configName();
    }
}
