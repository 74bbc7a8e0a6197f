package io.kestrel.rpc.transport.spi;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.internal.StreamSignature;
import java.lang.reflect.Method;
import java.util.StringJoiner;

/**
 * A method as both sides name it: {@code group/interface:version#name(paramType,...)}. The text is
 * sent once per connection; later calls send a small per-connection number instead. Create one
 * per method and reuse it: the connection remembers instances by identity.
 */
public final class MethodRef {
    private final String descriptor;
    private final String displayName;
    private final StreamSignature stream;

    /** @throws IllegalArgumentException when {@code method} uses {@code StreamObserver} other than as a streaming method */
    public MethodRef(ServiceKey service, Method method) {
        this.descriptor = descriptor(service, method);
        this.displayName = service + "#" + method.getName();
        this.stream = StreamSignature.of(method);
    }

    /** Its streaming shape; null for an ordinary (unary) method. */
    public StreamSignature stream() {
        return stream;
    }

    /** The descriptor text for {@code method} of {@code service}. */
    public static String descriptor(ServiceKey service, Method method) {
        StringJoiner params = new StringJoiner(",", "(", ")");
        for (Class<?> p : method.getParameterTypes()) {
            params.add(p.getTypeName());
        }
        return service + "#" + method.getName() + params;
    }

    public String descriptor() {
        return descriptor;
    }

    /** "service#method", for messages. */
    public String displayName() {
        return displayName;
    }

    @Override
    public String toString() {
        return descriptor;
    }
}
