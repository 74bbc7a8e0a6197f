package io.kestrel.rpc.serialization.fst;

import io.kestrel.rpc.serialization.internal.AllowlistObjectInputStream;
import io.kestrel.rpc.serialization.internal.ClassFilter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import org.nustaq.serialization.FSTBasicObjectSerializer;
import org.nustaq.serialization.FSTClazzInfo;
import org.nustaq.serialization.FSTObjectInput;
import org.nustaq.serialization.FSTObjectOutput;

/**
 * Writes {@link Throwable}s as an embedded, length-prefixed JDK-serialized block. fst's own
 * exception handling re-creates them through a {@code (String)} constructor, which business
 * exceptions often do not have. Reading goes through {@link AllowlistObjectInputStream}, so every
 * class in the exception is checked against the allowlist.
 */
final class FstJdkThrowableSerializer extends FSTBasicObjectSerializer {
    private static final int MAX_BYTES = 16 * 1024 * 1024;

    private final ClassFilter filter;
    private final ClassLoader loader;

    FstJdkThrowableSerializer(ClassFilter filter, ClassLoader loader) {
        this.filter = filter;
        this.loader = loader;
    }

    @Override
    public void writeObject(FSTObjectOutput out, Object toWrite, FSTClazzInfo clzInfo, FSTClazzInfo.FSTFieldInfo referencedBy,
            int streamPosition) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
        try (ObjectOutputStream oos = new ObjectOutputStream(bytes)) {
            oos.writeObject(toWrite);
        }
        out.writeInt(bytes.size());
        out.write(bytes.toByteArray());
    }

    @Override
    public Object instantiate(Class objectClass, FSTObjectInput in, FSTClazzInfo serializationInfo,
            FSTClazzInfo.FSTFieldInfo referencee, int streamPosition) throws Exception {
        int length = in.readInt();
        if (length < 0 || length > MAX_BYTES) {
            throw new IOException("embedded exception claims " + length + " bytes (limit " + MAX_BYTES + ")");
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        Object value = new AllowlistObjectInputStream(new ByteArrayInputStream(bytes), filter, loader,
                in instanceof BoundedFstObjectInput b ? b.tracker.budget() : io.kestrel.rpc.api.serialization.DecodeBudget.defaults()).readObject();
        if (!objectClass.isInstance(value)) {
            throw new IOException("expected a " + objectClass.getName() + " but the embedded JDK stream held "
                    + (value == null ? "null" : value.getClass().getName()));
        }
        in.registerObject(value, streamPosition, serializationInfo, referencee);
        return value;
    }

    @Override
    public void readObject(FSTObjectInput in, Object toRead, FSTClazzInfo clzInfo, FSTClazzInfo.FSTFieldInfo referencedBy) {
        // everything happens in instantiate
    }
}
