package io.kestrel.rpc.serialization.fastjson2;

import io.kestrel.rpc.api.serialization.Serialization;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.api.serialization.SerializerIds;
import io.kestrel.rpc.serialization.internal.SerializerLibrary;

/**
 * fastjson2 in its binary JSONB form (wire id {@value SerializerIds#FASTJSON2}, name "fastjson2";
 * "fastjson" is an alias). Field names are in the stream, so it tolerates added and removed fields
 * as it is. Runtime types are written as type names and read back only through the allowlist;
 * fastjson2's global autotype stays off.
 */
public final class Fastjson2Serialization implements Serialization {
    @Override
    public byte id() {
        return SerializerIds.FASTJSON2;
    }

    @Override
    public String name() {
        return "fastjson2";
    }

    @Override
    public boolean supportsCompatibleMode() {
        return true;
    }

    /**
     * False: fastjson2's JSONB reader allocates arrays and lists at the count a stream claims, and
     * offers no hook to check it first. Providers therefore accept fastjson2 only when configured to.
     */
    @Override
    public boolean boundsClaimedLengths() {
        return false;
    }

    /**
     * False: besides allocating at claimed lengths, fastjson2's JSONB reader fills sets and maps and
     * reads every value inside its own final classes, with no hook to count values, cost a key's hash
     * before insertion or look at the clock, and its {@code maxLevel} is not applied to nested JSONB
     * arrays. It could be bounded only by a pre-pass over the bytes, which its {@code skipValue()}
     * cannot do for values it writes itself (symbol-encoded names).
     */
    @Override
    public boolean boundsDecodeWork() {
        return false;
    }

    @Override
    public Serializer create(SerializationOptions options) {
        SerializerLibrary.FASTJSON2.require();
        return new Fastjson2Serializer(options);
    }

    @Override
    public String toString() {
        return "fastjson2(" + id() + ")";
    }
}
