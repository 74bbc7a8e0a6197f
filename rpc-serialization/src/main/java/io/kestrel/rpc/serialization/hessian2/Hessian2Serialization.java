package io.kestrel.rpc.serialization.hessian2;

import io.kestrel.rpc.api.serialization.Serialization;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.api.serialization.SerializerIds;
import io.kestrel.rpc.serialization.internal.SerializerLibrary;

/**
 * Hessian 2 (wire id {@value SerializerIds#HESSIAN2}, name "hessian2"; "hessian" is an alias).
 * Self-describing (class and field names are in the stream), so it is compatible across added and
 * removed fields as it is. Classes must implement {@link java.io.Serializable}.
 */
public final class Hessian2Serialization implements Serialization {
    @Override
    public byte id() {
        return SerializerIds.HESSIAN2;
    }

    @Override
    public String name() {
        return "hessian2";
    }

    @Override
    public boolean supportsCompatibleMode() {
        return true;
    }

    /** True: values counted per read, hash-based sets and maps costed before insertion. */
    @Override
    public boolean boundsDecodeWork() {
        return true;
    }

    @Override
    public Serializer create(SerializationOptions options) {
        SerializerLibrary.HESSIAN.require();
        return new Hessian2Serializer(options);
    }

    @Override
    public String toString() {
        return "hessian2(" + id() + ")";
    }
}
