package io.kestrel.rpc.perf.compare.system;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings that both halves of a system must agree on; the runner passes them to the server JVM as
 * arguments.
 *
 * @param rawSerialization serialization whose bytes the raw Netty echo carries ("kryo" by default)
 * @param rpcServerThreads business threads of the framework's server, or -1 for its default
 * @param callTimeout how long a caller waits for one answer
 * @param serverLimits the framework providers' {@code ServerLimits} as a
 *     {@link io.kestrel.rpc.perf.server.LimitsSpec} ("": the framework's defaults)
 */
public record SystemSettings(String rawSerialization, int rpcServerThreads, Duration callTimeout, String serverLimits) {
    /** Defaults: raw payload in kryo, framework default threads, 5 s call timeout, default limits. */
    public static final SystemSettings DEFAULTS = new SystemSettings("kryo", -1, Duration.ofSeconds(5), "");

    public SystemSettings {
        Objects.requireNonNull(rawSerialization, "rawSerialization");
        Objects.requireNonNull(callTimeout, "callTimeout");
        Objects.requireNonNull(serverLimits, "serverLimits");
    }

    /** These settings with other provider limits. */
    public SystemSettings withServerLimits(String spec) {
        return new SystemSettings(rawSerialization, rpcServerThreads, callTimeout, spec);
    }

    /** These settings with another call timeout. */
    public SystemSettings withCallTimeout(Duration timeout) {
        return new SystemSettings(rawSerialization, rpcServerThreads, timeout, serverLimits);
    }
}
