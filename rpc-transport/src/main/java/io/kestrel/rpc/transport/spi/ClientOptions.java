package io.kestrel.rpc.transport.spi;

import io.kestrel.rpc.api.config.ClientConfig;
import io.kestrel.rpc.api.config.TlsConfig;
import java.time.Duration;

/**
 * Settings of one client connection, taken from the runtime's {@link ClientConfig} (with what its
 * references set, which must agree).
 *
 * @param payloadBytes largest body sent or accepted
 * @param maxPendingCalls calls in flight beyond which new calls fail at once
 * @param connectTimeout TCP connect timeout
 * @param heartbeatInterval idle time after which a heartbeat is sent
 * @param heartbeatMisses silent heartbeat intervals after which the connection is closed and reconnected
 * @param tls TLS to the provider, or null for plaintext
 * @param token sent once per connection for the provider's authenticator, or null
 * @param protocol the wire protocol, {@code kestrel} or {@code dubbo} ({@link io.kestrel.rpc.api.config.ProtocolConfig#NAMES})
 */
public record ClientOptions(int payloadBytes, int maxPendingCalls, Duration connectTimeout, Duration heartbeatInterval,
        int heartbeatMisses, TlsConfig tls, String token, String protocol) {

    /** The native protocol. */
    public ClientOptions(int payloadBytes, int maxPendingCalls, Duration connectTimeout, Duration heartbeatInterval,
            int heartbeatMisses, TlsConfig tls, String token) {
        this(payloadBytes, maxPendingCalls, connectTimeout, heartbeatInterval, heartbeatMisses, tls, token,
                io.kestrel.rpc.api.config.ProtocolConfig.KESTREL);
    }

    /** These options on another wire protocol. */
    public ClientOptions withProtocol(String name) {
        return new ClientOptions(payloadBytes, maxPendingCalls, connectTimeout, heartbeatInterval, heartbeatMisses, tls,
                token, name);
    }

    /** Whether the connection speaks Apache Dubbo's dubbo protocol. */
    public boolean dubbo() {
        return io.kestrel.rpc.api.config.ProtocolConfig.DUBBO.equals(protocol);
    }

    /** Plaintext, no token. */
    public ClientOptions(int payloadBytes, int maxPendingCalls, Duration connectTimeout, Duration heartbeatInterval,
            int heartbeatMisses) {
        this(payloadBytes, maxPendingCalls, connectTimeout, heartbeatInterval, heartbeatMisses, null, null);
    }

    @Override
    public String toString() {
        return "{" + (dubbo() ? "protocol=dubbo, " : "") + "max-pending=" + maxPendingCalls + ", payload=" + payloadBytes + ", connect-timeout="
                + connectTimeout.toMillis() + "ms, heartbeat=" + heartbeatInterval.toMillis() + "ms x " + heartbeatMisses
                + (tls != null ? ", " + tls : "") + (token != null ? ", token=(set)" : "") + "}";
    }

    public static ClientOptions from(ClientConfig config) {
        return new ClientOptions(config.payloadBytes(), config.maxPendingCalls(), config.connectTimeout(),
                config.heartbeatInterval(), config.heartbeatMisses(), config.tls(), config.token());
    }
}
