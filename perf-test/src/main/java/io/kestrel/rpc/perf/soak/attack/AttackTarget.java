package io.kestrel.rpc.perf.soak.attack;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.perf.soak.SoakService;
import io.kestrel.rpc.perf.support.BenchmarkService;
import io.kestrel.rpc.perf.support.Encodings;
import io.kestrel.rpc.perf.support.SerializationVariant;
import io.kestrel.rpc.transport.spi.MethodRef;
import java.lang.reflect.Method;
import java.net.InetSocketAddress;

/**
 * The provider under attack: its address and the protocol's serialization (the only one its
 * services accept), with the descriptors of the methods the attacks call and their arguments'
 * bytes in that serialization.
 */
public record AttackTarget(InetSocketAddress address, String serialization, byte serializationId) {
    /** The soak provider at 127.0.0.1:{@code port}, speaking {@code serialization} (a SerializationVariant name). */
    public static AttackTarget of(int port, String serialization) {
        String name = SerializationVariant.of(serialization).serialization();
        Byte id = Encodings.installedNames().get(name);
        if (id == null) {
            throw new IllegalArgumentException("serialization " + name + " is not installed");
        }
        return new AttackTarget(new InetSocketAddress("127.0.0.1", port), serialization, id);
    }

    /** {@code BenchmarkService#echo(java.lang.String)}. */
    String echoDescriptor() {
        return descriptor(BenchmarkService.class, "echo", String.class);
    }

    /** {@code SoakService#existsLater(long,int)}. */
    String existsLaterDescriptor() {
        return descriptor(SoakService.class, "existsLater", long.class, int.class);
    }

    /** An argument's bytes in the provider's serialization (with the DemoOptimizer registrations). */
    byte[] encode(Object value) {
        return Encodings.encode(serialization, value);
    }

    static String descriptor(Class<?> type, String name, Class<?>... params) {
        try {
            Method m = type.getMethod(name, params);
            return MethodRef.descriptor(ServiceKey.of(type), m);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }
}
