package io.kestrel.rpc.api.internal;

import io.kestrel.rpc.api.stream.StreamObserver;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.Arrays;

/**
 * What a service method's signature says about streaming, read once per method: nothing (a unary method, {@link #of}
 * returns null), server streaming ({@code void m(..., StreamObserver<Resp> out)}) or request streaming, client or
 * bidirectional ({@code StreamObserver<Req> m(..., StreamObserver<Resp> out)}). Not part of the public API.
 *
 * @param bidirectional the method takes a stream of requests (it returns their observer)
 * @param wireParameterTypes the parameters sent in the request that opens the stream (all but the observer)
 * @param responseType the type of the messages the provider sends ({@code Resp})
 * @param requestType the type of the messages the consumer sends ({@code Req}); null for server streaming
 */
public record StreamSignature(boolean bidirectional, Class<?>[] wireParameterTypes, Class<?> responseType,
        Class<?> requestType) {

    /**
     * The streaming shape of {@code method}, or null when it is an ordinary (unary) method.
     *
     * @throws IllegalArgumentException naming the method and the rule when it uses {@link StreamObserver} in
     *     another way
     */
    public static StreamSignature of(Method method) {
        Class<?>[] params = method.getParameterTypes();
        int observers = 0;
        for (Class<?> p : params) {
            if (StreamObserver.class.isAssignableFrom(p)) {
                observers++;
            }
        }
        boolean returnsObserver = StreamObserver.class.isAssignableFrom(method.getReturnType());
        if (observers == 0 && !returnsObserver) {
            return null;
        }
        String rule = " A streaming method takes a StreamObserver<Resp> as its last parameter and returns void"
                + " (server streaming) or StreamObserver<Req> (client or bidirectional streaming)";
        if (observers != 1 || params[params.length - 1] != StreamObserver.class) {
            throw new IllegalArgumentException(name(method) + " uses StreamObserver but not as its last parameter,"
                    + " exactly once, declared as StreamObserver itself." + rule);
        }
        if (!returnsObserver && method.getReturnType() != void.class) {
            throw new IllegalArgumentException(name(method) + " takes a StreamObserver but returns "
                    + method.getReturnType().getSimpleName() + "." + rule);
        }
        if (returnsObserver && method.getReturnType() != StreamObserver.class) {
            throw new IllegalArgumentException(name(method) + " returns " + method.getReturnType().getSimpleName()
                    + " rather than StreamObserver." + rule);
        }
        Type[] generic = method.getGenericParameterTypes();
        Class<?> responseType = elementType(generic[generic.length - 1]);
        Class<?> requestType = returnsObserver ? elementType(method.getGenericReturnType()) : null;
        return new StreamSignature(returnsObserver, Arrays.copyOf(params, params.length - 1), responseType, requestType);
    }

    /** The position of the observer among the method's parameters. */
    public int observerIndex() {
        return wireParameterTypes.length;
    }

    /**
     * The class of a generic type's first type argument ({@code StreamObserver<X>}, {@code CompletableFuture<X>}:
     * X, or X's raw class when X is itself generic); {@code Object} when there is none to read.
     */
    public static Class<?> elementType(Type t) {
        if (t instanceof ParameterizedType p) {
            Type arg = p.getActualTypeArguments()[0];
            if (arg instanceof Class<?> c) {
                return c;
            }
            if (arg instanceof ParameterizedType pa && pa.getRawType() instanceof Class<?> raw) {
                return raw;
            }
        }
        return Object.class;
    }

    private static String name(Method method) {
        return method.getDeclaringClass().getName() + "#" + method.getName();
    }
}
