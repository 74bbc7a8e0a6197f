package io.kestrel.rpc.serialization.internal;

import io.kestrel.rpc.api.SerializationException;

/**
 * The third-party library a serialization runs on. rpc-serialization brings fory (the default) and leaves
 * kryo, fst, hessian and fastjson2 optional, so an application carries only the libraries it configures;
 * creating a serializer whose library is missing fails with the Maven coordinates to add.
 */
public enum SerializerLibrary {
    KRYO("kryo", "com.esotericsoftware.kryo.Kryo", "com.esotericsoftware:kryo"),
    FST("fst", "org.nustaq.serialization.FSTConfiguration", "de.ruedigermoeller:fst"),
    HESSIAN("hessian2", "com.caucho.hessian.io.Hessian2Input", "com.caucho:hessian"),
    FASTJSON2("fastjson2", "com.alibaba.fastjson2.JSONB", "com.alibaba.fastjson2:fastjson2");

    private final String serialization;
    private final String probeClass;
    private final String artifact;

    SerializerLibrary(String serialization, String probeClass, String artifact) {
        this.serialization = serialization;
        this.probeClass = probeClass;
        this.artifact = artifact;
    }

    /** The Maven groupId:artifactId of the library. */
    public String artifact() {
        return artifact;
    }

    /** Whether the library can be loaded next to rpc-serialization. */
    public boolean isPresent() {
        try {
            Class.forName(probeClass, false, SerializerLibrary.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /**
     * @throws SerializationException naming the serialization and the dependency to add, if it is missing
     */
    public void require() {
        if (!isPresent()) {
            throw new SerializationException("Serialization '" + serialization + "' needs the library " + artifact
                    + ", which is not on the class path (rpc-serialization brings only fory, the default). Add the "
                    + "dependency " + artifact + " (its version is managed by io.kestrel:kestrel-bom), or choose "
                    + "another serialization");
        }
    }
}
