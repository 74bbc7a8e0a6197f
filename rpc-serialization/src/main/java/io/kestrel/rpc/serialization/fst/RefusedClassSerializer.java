package io.kestrel.rpc.serialization.fst;

import io.kestrel.rpc.serialization.internal.ClassFilter;
import java.io.IOException;
import org.nustaq.serialization.FSTBasicObjectSerializer;
import org.nustaq.serialization.FSTClazzInfo;
import org.nustaq.serialization.FSTClazzNameRegistry;
import org.nustaq.serialization.FSTConfiguration;
import org.nustaq.serialization.FSTObjectInput;
import org.nustaq.serialization.FSTObjectOutput;

/**
 * Closes a hole in name-based checking: fst pre-registers some JDK classes (java.net.URL among
 * them, the URLDNS gadget's key) and refers to them by number, so their names never reach the
 * allowlist. Every pre-registered class the allowlist refuses gets this serializer, which refuses
 * to write or create it.
 */
final class RefusedClassSerializer extends FSTBasicObjectSerializer {
    private final ClassFilter filter;

    private RefusedClassSerializer(ClassFilter filter) {
        this.filter = filter;
    }

    /** Installs the refusal for each class fst registered by itself that the allowlist does not allow. */
    static void install(FSTConfiguration conf, ClassFilter filter) {
        RefusedClassSerializer refusal = new RefusedClassSerializer(filter);
        FSTClazzNameRegistry registry = conf.getClassRegistry();
        for (int id = 0; id < 4096; id++) {
            FSTClazzInfo info;
            try {
                info = registry.getClazzFromId(id);
            } catch (RuntimeException beyondTheTable) {
                break;
            }
            if (info == null || info.getClazz() == null) {
                continue;
            }
            Class<?> type = info.getClazz();
            if (!type.isPrimitive() && !filter.isAllowed(type.getName())) {
                conf.registerSerializer(type, refusal, false);
            }
        }
    }

    @Override
    public void writeObject(FSTObjectOutput out, Object toWrite, FSTClazzInfo clzInfo,
            FSTClazzInfo.FSTFieldInfo referencedBy, int streamPosition) throws IOException {
        throw filter.allowlist().refused(toWrite.getClass().getName());
    }

    @Override
    public Object instantiate(Class objectClass, FSTObjectInput in, FSTClazzInfo serializationInfo,
            FSTClazzInfo.FSTFieldInfo referencee, int streamPosition) {
        throw filter.allowlist().refused(objectClass.getName());
    }
}
