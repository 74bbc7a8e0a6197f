package io.kestrel.rpc.transport;

import io.kestrel.rpc.api.config.ClientConfig;
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
 */
public record ClientOptions(int payloadBytes, int maxPendingCalls, Duration connectTimeout, Duration heartbeatInterval,
        int heartbeatMisses) {

    @Override
    public String toString() {
        return "{max-pending=" + maxPendingCalls + ", payload=" + payloadBytes + ", connect-timeout="
                + connectTimeout.toMillis() + "ms, heartbeat=" + heartbeatInterval.toMillis() + "ms x " + heartbeatMisses
                + "}";
    }

    public static ClientOptions from(ClientConfig config) {
        return new ClientOptions(config.payloadBytes(), config.maxPendingCalls(), config.connectTimeout(),
                config.heartbeatInterval(), config.heartbeatMisses());
    }
}
