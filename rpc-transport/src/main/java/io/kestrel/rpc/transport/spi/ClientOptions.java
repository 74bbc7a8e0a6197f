package io.kestrel.rpc.transport.spi;

import io.kestrel.rpc.api.config.ClientConfig;
import io.kestrel.rpc.api.config.ConnectionSettings;
import io.kestrel.rpc.api.config.ProtocolConfig;
import java.util.Objects;

/**
 * Settings of one client connection: the runtime's connection settings ({@link ClientConfig#connection()}, with
 * what its references set, which must agree) and the wire protocol they are spoken in.
 *
 * @param connection the connection settings, every one set (as a {@link ClientConfig}'s are)
 * @param protocol the wire protocol, {@code kestrel} or {@code dubbo} ({@link ProtocolConfig#NAMES})
 */
public record ClientOptions(ConnectionSettings connection, String protocol) {

    /**
     * @throws IllegalArgumentException when a setting but TLS and the token is unset in {@code connection}
     */
    public ClientOptions {
        Objects.requireNonNull(connection, "connection settings");
        Objects.requireNonNull(protocol, "protocol");
        if (connection.maxPendingCalls() == null || connection.payloadBytes() == null
                || connection.connectTimeout() == null || connection.heartbeatInterval() == null
                || connection.heartbeatMisses() == null) {
            throw new IllegalArgumentException("client connection settings must all be set (resolve a reference's"
                    + " over its runtime's ClientConfig first); got " + connection);
        }
    }

    /** The runtime's connection settings on the native protocol. */
    public static ClientOptions from(ClientConfig config) {
        return new ClientOptions(config.connection(), ProtocolConfig.KESTREL);
    }

    /** These options on another wire protocol. */
    public ClientOptions withProtocol(String name) {
        return new ClientOptions(connection, name);
    }

    /** Whether the connection speaks Apache Dubbo's dubbo protocol. */
    public boolean dubbo() {
        return ProtocolConfig.DUBBO.equals(protocol);
    }

    @Override
    public String toString() {
        return "{" + (dubbo() ? "protocol=dubbo, " : "") + connection + "}";
    }
}
