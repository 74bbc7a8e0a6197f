package io.kestrel.rpc.transport;

import io.kestrel.rpc.api.config.ReferenceConfig;
import java.time.Duration;

/**
 * Settings of one client connection. The first reference that opens the connection to an address
 * sets them; later references share that connection as it is.
 *
 * @param payloadBytes largest body sent or accepted
 * @param maxPendingCalls calls in flight beyond which new calls fail at once
 * @param connectTimeout TCP connect timeout
 * @param heartbeatInterval idle time after which a heartbeat is sent
 * @param heartbeatMisses silent heartbeat intervals after which the connection is closed and reconnected
 */
public record ClientOptions(int payloadBytes, int maxPendingCalls, Duration connectTimeout, Duration heartbeatInterval,
        int heartbeatMisses) {

    public static ClientOptions from(ReferenceConfig<?> config) {
        return new ClientOptions(config.payloadBytes(), config.maxPendingCalls(), config.connectTimeout(),
                config.heartbeatInterval(), config.heartbeatMisses());
    }
}
