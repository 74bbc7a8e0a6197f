package io.kestrel.rpc.api.config;

import java.time.Duration;
import java.util.Objects;

/**
 * What one client may cost a provider, so that no client, hostile or broken, can take the provider
 * away from the others. Every limit has a default that normal traffic never meets; the setting
 * names are the XML attributes of {@code <rpc:protocol>} (and {@code rpc.protocol.*} keys).
 * Immutable; build with {@link #builder()}.
 */
public final class ServerLimits {
    private final int maxConnections;
    private final int maxConnectionsPerHost;
    private final int callsPerConnection;
    private final long memoryBudgetBytes;
    private final Duration frameTimeout;
    private final Duration writeStallTimeout;
    private final int writeBufferBytes;
    private final boolean discloseServices;
    private final Duration streamIdleTimeout;

    private ServerLimits(Builder b) {
        this.maxConnections = b.maxConnections;
        this.maxConnectionsPerHost = b.maxConnectionsPerHost;
        this.callsPerConnection = b.callsPerConnection;
        this.memoryBudgetBytes = b.memoryBudgetBytes;
        this.frameTimeout = b.frameTimeout;
        this.writeStallTimeout = b.writeStallTimeout;
        this.writeBufferBytes = b.writeBufferBytes;
        this.discloseServices = b.discloseServices;
        this.streamIdleTimeout = b.streamIdleTimeout;
    }

    public static Builder builder() {
        return new Builder();
    }

    public static ServerLimits defaults() {
        return builder().build();
    }

    /** Open consumer connections at most ({@code max-connections}); more are closed at once. Default 4096. */
    public int maxConnections() {
        return maxConnections;
    }

    /** Open connections from one remote address at most ({@code max-connections-per-host}). Default 256. */
    public int maxConnectionsPerHost() {
        return maxConnectionsPerHost;
    }

    /**
     * Calls of one connection running or queued at once ({@code calls-per-connection}); beyond it a
     * call is answered "busy" at once (it did not run, so failover may retry it). 0 (the default)
     * means half of the business threads, at least 1: one connection cannot take every thread.
     */
    public int callsPerConnection() {
        return callsPerConnection;
    }

    /** {@link #callsPerConnection()} with its default resolved for a pool of {@code threads}. */
    public int callsPerConnection(int threads) {
        return callsPerConnection > 0 ? callsPerConnection : Math.max(1, threads / 2);
    }

    /**
     * Bytes of requests being received or executed and of responses waiting to be written, for the
     * whole provider ({@code memory-budget}); beyond it new requests are answered "busy" (they did
     * not run). Default: a quarter of the maximum heap, between 64 MiB and 1 GiB.
     */
    public long memoryBudgetBytes() {
        return memoryBudgetBytes;
    }

    /**
     * How long a frame may take to arrive from its first byte to its last ({@code frame-timeout});
     * a connection trickling a frame slower than that is closed (the idle timer does not keep it
     * alive). Default 30 s.
     */
    public Duration frameTimeout() {
        return frameTimeout;
    }

    /**
     * How long a connection may stay unwritable, its peer not reading the responses, before it is
     * closed ({@code write-stall-timeout}). Meanwhile no more of its requests are read. Default 30 s.
     */
    public Duration writeStallTimeout() {
        return writeStallTimeout;
    }

    /**
     * Bytes of responses waiting for one connection beyond which it is unwritable and its requests
     * are no longer read ({@code write-buffer}); reading resumes below half of it. Default 2 MiB.
     */
    public int writeBufferBytes() {
        return writeBufferBytes;
    }

    /**
     * Whether error answers list what the provider exports ({@code disclose-services}). Default false:
     * a caller naming an unknown service or method learns only that; the consumer adds what the
     * provider's registry record says on its own side.
     */
    public boolean discloseServices() {
        return discloseServices;
    }

    /**
     * How long a consumer may hold credit on a client or bidirectional stream without sending a message,
     * half-closing or cancelling, before the provider ends the stream ({@code stream-idle-timeout}); both sides'
     * observers get a {@code StreamCancelledException} naming this setting, and the stream's slot is freed. Time the
     * consumer spends waiting for credit does not count. {@link Duration#ZERO} turns it off. Default 5 min.
     */
    public Duration streamIdleTimeout() {
        return streamIdleTimeout;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ServerLimits l && maxConnections == l.maxConnections
                && maxConnectionsPerHost == l.maxConnectionsPerHost && callsPerConnection == l.callsPerConnection
                && memoryBudgetBytes == l.memoryBudgetBytes && frameTimeout.equals(l.frameTimeout)
                && writeStallTimeout.equals(l.writeStallTimeout) && writeBufferBytes == l.writeBufferBytes
                && discloseServices == l.discloseServices && streamIdleTimeout.equals(l.streamIdleTimeout);
    }

    @Override
    public int hashCode() {
        return Objects.hash(maxConnections, maxConnectionsPerHost, callsPerConnection, memoryBudgetBytes, frameTimeout,
                writeStallTimeout, writeBufferBytes, discloseServices, streamIdleTimeout);
    }

    @Override
    public String toString() {
        return "ServerLimits{max-connections=" + maxConnections + ", max-connections-per-host=" + maxConnectionsPerHost
                + ", calls-per-connection=" + (callsPerConnection == 0 ? "half the threads" : callsPerConnection)
                + ", memory-budget=" + memoryBudgetBytes + ", frame-timeout=" + frameTimeout.toMillis()
                + "ms, write-stall-timeout=" + writeStallTimeout.toMillis() + "ms, write-buffer=" + writeBufferBytes
                + ", disclose-services=" + discloseServices + ", stream-idle-timeout=" + streamIdleTimeout.toMillis()
                + "ms}";
    }

    public static final class Builder {
        private int maxConnections = 4096;
        private int maxConnectionsPerHost = 256;
        private int callsPerConnection;
        private long memoryBudgetBytes = Math.max(64L << 20, Math.min(1L << 30, Runtime.getRuntime().maxMemory() / 4));
        private Duration frameTimeout = Duration.ofSeconds(30);
        private Duration writeStallTimeout = Duration.ofSeconds(30);
        private int writeBufferBytes = 2 << 20;
        private boolean discloseServices;
        private Duration streamIdleTimeout = Duration.ofMinutes(5);

        private Builder() {
        }

        public Builder maxConnections(int max) {
            this.maxConnections = Checks.atLeast("protocol max-connections", max, 1);
            return this;
        }

        public Builder maxConnectionsPerHost(int max) {
            this.maxConnectionsPerHost = Checks.atLeast("protocol max-connections-per-host", max, 1);
            return this;
        }

        /** 0: half of the business threads. */
        public Builder callsPerConnection(int max) {
            this.callsPerConnection = Checks.atLeast("protocol calls-per-connection", max, 0);
            return this;
        }

        public Builder memoryBudgetBytes(long bytes) {
            if (bytes < 1 << 20) {
                throw new IllegalArgumentException("protocol memory-budget must be >= 1048576 bytes, was " + bytes);
            }
            this.memoryBudgetBytes = bytes;
            return this;
        }

        public Builder frameTimeout(Duration timeout) {
            this.frameTimeout = Checks.positive("protocol frame-timeout", timeout);
            return this;
        }

        public Builder writeStallTimeout(Duration timeout) {
            this.writeStallTimeout = Checks.positive("protocol write-stall-timeout", timeout);
            return this;
        }

        public Builder writeBufferBytes(int bytes) {
            this.writeBufferBytes = Checks.atLeast("protocol write-buffer", bytes, 64 * 1024);
            return this;
        }

        public Builder discloseServices(boolean disclose) {
            this.discloseServices = disclose;
            return this;
        }

        /** {@link Duration#ZERO}: no idle timer on streams. */
        public Builder streamIdleTimeout(Duration timeout) {
            this.streamIdleTimeout = Checks.notNegativeMillis("protocol stream-idle-timeout", timeout);
            return this;
        }

        public ServerLimits build() {
            return new ServerLimits(this);
        }
    }
}
