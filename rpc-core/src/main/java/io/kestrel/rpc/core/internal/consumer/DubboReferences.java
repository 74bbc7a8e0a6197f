package io.kestrel.rpc.core.internal.consumer;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.transport.spi.ClientOptions;

/** What a reference on Apache Dubbo's dubbo protocol may ask for, checked at refer with the fix named. */
final class DubboReferences {
    private DubboReferences() {
    }

    static void check(ReferenceConfig<?> config, ClientOptions options) {
        String where = "reference " + config.key() + " on the dubbo protocol";
        if (config.serialization() != null && !ProtocolConfig.DUBBO_SERIALIZATIONS.contains(config.serialization())) {
            throw new IllegalArgumentException(where + " sets serialization=\"" + config.serialization() + "\"; the"
                    + " dubbo protocol speaks " + ProtocolConfig.DUBBO_SERIALIZATIONS + " here. Remove it (hessian2,"
                    + " Dubbo's default) or set one of those");
        }
        if (options.connection().tls() != null || options.connection().token() != null) {
            throw new IllegalArgumentException(where + " sets TLS or a token, which the dubbo protocol does not carry"
                    + " here; remove the tls-* and token settings from the reference (and the runtime's client)");
        }
        // no url: the registry's Dubbo layout lists the providers (Registry.subscribe with protocol "dubbo")
    }
}
