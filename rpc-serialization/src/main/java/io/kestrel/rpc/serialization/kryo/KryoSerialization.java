package io.kestrel.rpc.serialization.kryo;

import io.kestrel.rpc.api.serialization.Serialization;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.api.serialization.SerializerIds;
import io.kestrel.rpc.serialization.internal.SerializerLibrary;

/**
 * Kryo 5 (wire id {@value SerializerIds#KRYO}, name "kryo"). Compact and fast; references are on, so
 * shared and cyclic graphs round-trip. Registration is optional: classes from the optimizer are
 * written as small ids (both sides must register the same classes in the same order), all others by
 * name, and every name read is checked against the allowlist before it is loaded. Compatible mode
 * uses kryo's {@code CompatibleFieldSerializer}, which tolerates added and removed fields.
 */
public final class KryoSerialization implements Serialization {
    @Override
    public byte id() {
        return SerializerIds.KRYO;
    }

    @Override
    public String name() {
        return "kryo";
    }

    @Override
    public boolean supportsCompatibleMode() {
        return true;
    }

    /** True: every value read is tracked, hash keys are costed before insertion ({@code TrackingKryo}). */
    @Override
    public boolean boundsDecodeWork() {
        return true;
    }

    @Override
    public Serializer create(SerializationOptions options) {
        SerializerLibrary.KRYO.require();
        return new KryoSerializer(options);
    }

    @Override
    public String toString() {
        return "kryo(" + id() + ")";
    }
}
