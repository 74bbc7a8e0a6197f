package io.kestrel.rpc.core.internal.generic;

import io.kestrel.rpc.api.security.CallerIdentity;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.transport.spi.ServerMethod;

/**
 * What the reserved methods of a service ({@code $invoke}, {@code $metadata}) share with its own methods:
 * the serializations it accepts (pinned per service: a generic call cannot pick another decoder) and the
 * callers it admits.
 */
public abstract class ReservedMethod implements ServerMethod {
    /** The service's gate: its accepted serializations and its caller admission. */
    public interface ServiceGate {
        /** As {@link ServerMethod#serializer}, for a method of this service named {@code displayName}. */
        Serializer serializer(String displayName, byte serializationId);

        /** As {@link ServerMethod#admit}. */
        void admit(CallerIdentity caller, String anonymousBecause);
    }

    private final ServiceGate gate;

    ReservedMethod(ServiceGate gate) {
        this.gate = gate;
    }

    @Override
    public Serializer serializer(byte serializationId) {
        return gate.serializer(displayName(), serializationId);
    }

    @Override
    public boolean reserved() {
        return true;
    }

    @Override
    public void admit(CallerIdentity caller, String anonymousBecause) {
        gate.admit(caller, anonymousBecause);
    }
}
