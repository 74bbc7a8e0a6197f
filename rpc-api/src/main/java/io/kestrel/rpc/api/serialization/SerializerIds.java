package io.kestrel.rpc.api.serialization;

/**
 * Wire ids of the built-in serializations, written in every frame header. The numbering follows
 * Apache Dubbo's so that people who know Dubbo feel at home. An id is a wire contract: never reuse a
 * retired one.
 */
public final class SerializerIds {
    public static final byte HESSIAN2 = 2;
    public static final byte JAVA = 3;
    public static final byte FASTJSON2 = 6;
    public static final byte KRYO = 8;
    public static final byte FST = 9;
    public static final byte FORY = 28;

    private SerializerIds() {
    }
}
