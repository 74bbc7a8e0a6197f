package io.kestrel.rpc.core.internal.provider;

import io.kestrel.rpc.api.BadRequestException;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.serialization.Serialization;
import io.kestrel.rpc.api.serialization.SerializationOptimizer;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.core.internal.shared.SerializerCache;
import java.util.Set;
import java.util.TreeSet;

/**
 * The serializations a provider's services accept, and the serializer a frame of one of their methods is read
 * and answered with: a caller does not get to pick the decoder. Thread-safe.
 */
final class ServiceSerializers {
    private final SerializerCache serializers;
    private final Class<? extends SerializationOptimizer> optimizer;
    private final boolean compatible;
    private final String protocolSerialization;

    ServiceSerializers(SerializerCache serializers, Class<? extends SerializationOptimizer> optimizer,
            boolean compatible, String protocolSerialization) {
        this.serializers = serializers;
        this.optimizer = optimizer;
        this.compatible = compatible;
        this.protocolSerialization = protocolSerialization;
    }

    /**
     * The service's own list, or by default the protocol's serialization only: the caller does not
     * get to pick the decoder. A service that must accept several during a migration lists them.
     */
    Set<Byte> acceptedIds(ServiceConfig<?> config) {
        Set<Byte> ids = new TreeSet<>();
        Serializations installed = Serializations.installed();
        if (config.serializations().isEmpty()) {
            ids.add(installed.byName(protocolSerialization).id());
        } else {
            for (String name : config.serializations()) {
                ids.add(installed.byName(name).id());
            }
        }
        return ids;
    }

    /** The serializer of a method of a service that accepts {@code accepted}, for frames with serialization {@code id}. */
    Serializer serializerFor(String displayName, Set<Byte> accepted, byte id) {
        Serialization s = Serializations.installed().byId(id);
        if (s == null) {
            throw new BadRequestException("unknown serialization id " + id + "; this provider has "
                    + Serializations.installed().names());
        }
        if (!accepted.contains(id)) {
            // by name: ids differ between protocols (fastjson2 is 6 here and 23 on the dubbo protocol)
            throw new BadRequestException(displayName + " was not exported with serialization " + s.name()
                    + "; it accepts " + accepted.stream().map(ServiceSerializers::serializationName).toList()
                    + ". Use one of those on the reference");
        }
        try {
            return serializers.get(s.name(), optimizer, compatible);
        } catch (RuntimeException e) {
            throw new BadRequestException("serialization " + s.name() + " is unavailable on this provider: "
                    + e.getMessage());
        }
    }

    private static String serializationName(byte id) {
        Serialization s = Serializations.installed().byId(id);
        return s != null ? s.name() : "id " + id;
    }
}
