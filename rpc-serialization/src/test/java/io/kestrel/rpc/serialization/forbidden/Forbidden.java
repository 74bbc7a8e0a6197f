package io.kestrel.rpc.serialization.forbidden;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;

/**
 * Must never be loaded by a deserializer in the tests. Its static initializer, constructor and
 * readObject record in {@link ForbiddenProbe} that it was reached. Tests refer to it by name only.
 */
public class Forbidden implements Serializable {
    private static final long serialVersionUID = 1L;

    static {
        ForbiddenProbe.INITIALIZED.set(true);
    }

    public String payload;

    public Forbidden() {
        ForbiddenProbe.INSTANCES.incrementAndGet();
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        ForbiddenProbe.INSTANCES.incrementAndGet();
        in.defaultReadObject();
    }
}
