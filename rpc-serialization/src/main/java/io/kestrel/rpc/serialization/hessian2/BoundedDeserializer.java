package io.kestrel.rpc.serialization.hessian2;

import com.caucho.hessian.io.AbstractHessianInput;
import com.caucho.hessian.io.Deserializer;
import java.io.IOException;

/**
 * Wraps a hessian {@link Deserializer} so that every length it is handed (a fixed-length list's
 * element count, a variable list's hint when not -1, an object definition's field count) is
 * checked by {@link LengthBudget#claim} before the wrapped deserializer can allocate for it.
 * Everything else is passed through unchanged, so the wire format does not change.
 */
final class BoundedDeserializer implements Deserializer {
    private final Deserializer delegate;

    private BoundedDeserializer(Deserializer delegate) {
        this.delegate = delegate;
    }

    static Deserializer wrap(Deserializer d) {
        return d == null || d instanceof BoundedDeserializer ? d : new BoundedDeserializer(d);
    }

    @Override
    public Class<?> getType() {
        return delegate.getType();
    }

    @Override
    public boolean isReadResolve() {
        return delegate.isReadResolve();
    }

    @Override
    public Object readObject(AbstractHessianInput in) throws IOException {
        return delegate.readObject(in);
    }

    @Override
    public Object readList(AbstractHessianInput in, int length) throws IOException {
        if (length >= 0) { // -1: variable length, read to the end marker; nothing is pre-sized
            LengthBudget.claim(length, describe());
        }
        return delegate.readList(in, length);
    }

    @Override
    public Object readLengthList(AbstractHessianInput in, int length) throws IOException {
        LengthBudget.claim(length, describe());
        return delegate.readLengthList(in, length);
    }

    @Override
    public Object readMap(AbstractHessianInput in) throws IOException {
        return delegate.readMap(in);
    }

    @Override
    public Object[] createFields(int len) {
        try {
            LengthBudget.claim(len, "the field names of " + describe());
        } catch (IOException e) {
            // createFields cannot throw a checked exception; Hessian2Serializer turns this into a
            // SerializationException like any other failure.
            throw new IllegalStateException(e.getMessage(), e);
        }
        return delegate.createFields(len);
    }

    @Override
    public Object createField(String name) {
        return delegate.createField(name);
    }

    @Override
    public Object readObject(AbstractHessianInput in, Object[] fields) throws IOException {
        return delegate.readObject(in, fields);
    }

    @Override
    public Object readObject(AbstractHessianInput in, String[] fieldNames) throws IOException {
        return delegate.readObject(in, fieldNames);
    }

    private String describe() {
        Class<?> type = delegate.getType();
        return type == null ? "a list" : "a " + type.getTypeName();
    }

    @Override
    public String toString() {
        return "Bounded[" + delegate + "]";
    }
}
