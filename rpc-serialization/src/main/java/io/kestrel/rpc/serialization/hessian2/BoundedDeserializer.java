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
final class BoundedDeserializer extends ForwardingDeserializer {

    private BoundedDeserializer(Deserializer delegate) {
        super(delegate);
    }

    static Deserializer wrap(Deserializer d) {
        return d == null || d instanceof BoundedDeserializer ? d : new BoundedDeserializer(d);
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

    private String describe() {
        Class<?> type = delegate.getType();
        return type == null ? "a list" : "a " + type.getTypeName();
    }

    @Override
    public String toString() {
        return "Bounded[" + delegate + "]";
    }
}
