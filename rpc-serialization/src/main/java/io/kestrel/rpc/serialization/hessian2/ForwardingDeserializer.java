package io.kestrel.rpc.serialization.hessian2;

import com.caucho.hessian.io.AbstractHessianInput;
import com.caucho.hessian.io.Deserializer;
import java.io.IOException;

/** A hessian {@link Deserializer} that passes every call to another; subclasses override what they bound. */
abstract class ForwardingDeserializer implements Deserializer {
    protected final Deserializer delegate;

    ForwardingDeserializer(Deserializer delegate) {
        this.delegate = delegate;
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
        return delegate.readList(in, length);
    }

    @Override
    public Object readLengthList(AbstractHessianInput in, int length) throws IOException {
        return delegate.readLengthList(in, length);
    }

    @Override
    public Object readMap(AbstractHessianInput in) throws IOException {
        return delegate.readMap(in);
    }

    @Override
    public Object[] createFields(int len) {
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
}
