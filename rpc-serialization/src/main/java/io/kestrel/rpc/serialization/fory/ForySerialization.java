package io.kestrel.rpc.serialization.fory;

import io.kestrel.rpc.api.serialization.Serialization;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.api.serialization.SerializerIds;

/**
 * Apache Fory (formerly Fury; wire id {@value SerializerIds#FORY}, name "fory"). Java mode with
 * reference tracking (shared and cyclic graphs round-trip) and JIT-generated serializers.
 *
 * <ul>
 *   <li>Registration is optional: the optimizer's classes are registered in order and written as
 *       small ids (both sides must register the same classes in the same order); other classes are
 *       written by name.</li>
 *   <li>Every class name read is checked against the allowlist before fory loads it (fory's
 *       {@code TypeChecker} hook); a refusal is the allowlist's
 *       {@link io.kestrel.rpc.api.ClassNotAllowedException}. Fory runs the same check when it first
 *       meets a class while <em>writing</em>, so writing a value of a class outside the allowlist fails
 *       on the writer's side with the same exception.</li>
 *   <li>Compatible mode is fory's {@code CompatibleMode.COMPATIBLE}: the writer sends each class's
 *       field layout once per value, so a reader tolerates added, removed and reordered fields
 *       (missing fields keep their Java defaults). Plain mode is {@code SCHEMA_CONSISTENT}: both
 *       sides must have the same class; fory sends a hash of the field layout and a changed class
 *       fails with an error rather than misreading.</li>
 * </ul>
 *
 * <p>Runs on JDK 17+ without any {@code --add-opens} flag.
 */
public final class ForySerialization implements Serialization {
    @Override
    public byte id() {
        return SerializerIds.FORY;
    }

    @Override
    public String name() {
        return "fory";
    }

    @Override
    public boolean supportsCompatibleMode() {
        return true;
    }

    /** True: depth, collection and map elements, hash nesting and hash work are bounded ({@code ForySerializer}). */
    @Override
    public boolean boundsDecodeWork() {
        return true;
    }

    @Override
    public Serializer create(SerializationOptions options) {
        return new ForySerializer(options);
    }

    @Override
    public String toString() {
        return "fory(" + id() + ")";
    }
}
