package io.kestrel.rpc.serialization.java;

import io.kestrel.rpc.api.serialization.Serialization;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.api.serialization.SerializerIds;

/**
 * JDK serialization (wire id {@value SerializerIds#JAVA}, name "java"). The baseline: large and
 * slow, but needs nothing beyond {@link java.io.Serializable}. Reading checks every class descriptor
 * against the allowlist before loading it. No compatible mode.
 */
public final class JavaSerialization implements Serialization {
    @Override
    public byte id() {
        return SerializerIds.JAVA;
    }

    @Override
    public String name() {
        return "java";
    }

    @Override
    public boolean supportsCompatibleMode() {
        return false;
    }

    /**
     * False. The JDK's {@code ObjectInputFilter} holds a stream to the depth, value-count, hash-nesting
     * limits and the deadline (checked per object), but it never sees the objects themselves, and
     * {@code HashSet}/{@code HashMap.readObject} insert (hash) each element inside the JDK: a hash set
     * holding many back-references to one deep list makes the JDK hash that list once per reference,
     * work no filter can measure or stop.
     */
    @Override
    public boolean boundsDecodeWork() {
        return false;
    }

    /** java requires java.io.Serializable. */
    @Override
    public java.util.Optional<io.kestrel.rpc.api.serialization.TypeProblem> problemWith(Class<?> type) {
        return io.kestrel.rpc.serialization.internal.SerializableRule.check("java", type, true);
    }

    /** @throws IllegalArgumentException if compatible mode is asked for */
    /** False: registered classes are only allowed; the stream names classes by name. */
    @Override
    public boolean encodesRegisteredClassesByNumber() {
        return false;
    }

    @Override
    public Serializer create(SerializationOptions options) {
        if (options.compatible()) {
            throw new IllegalArgumentException("java serialization does not support compatible mode (a changed class "
                    + "fails unless its author manages serialVersionUID and readObject by hand); use kryo, hessian2 "
                    + "or fastjson2 with compatible=true, or turn compatible off for java");
        }
        return new JavaSerializer(options);
    }

    @Override
    public String toString() {
        return "java(" + id() + ")";
    }
}
