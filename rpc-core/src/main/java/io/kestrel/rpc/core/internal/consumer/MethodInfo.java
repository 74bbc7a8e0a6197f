package io.kestrel.rpc.core.internal.consumer;

import io.kestrel.rpc.api.internal.StreamSignature;
import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.transport.spi.MethodRef;
import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** What the proxy precomputes per method: the wire reference, result type, sync or async. */
final class MethodInfo {
    final ServiceKey service;
    final Method method;
    final MethodRef ref;
    final boolean async;
    final Class<?> resultType;
    final int timeoutMillis;

    MethodInfo(ServiceKey service, Method method, int timeoutMillis) {
        this.service = service;
        this.method = method;
        this.ref = new MethodRef(service, method);
        Class<?> returnType = method.getReturnType();
        boolean stream = ref.stream() != null; // never blocks: the call's end is the stream's
        this.async = stream || returnType == CompletableFuture.class || returnType == CompletionStage.class;
        this.resultType = stream ? Object.class
                : async ? StreamSignature.elementType(method.getGenericReturnType()) : box(returnType);
        this.timeoutMillis = timeoutMillis;
    }

    /** A method whose wire reference and result type are given (generic calls: one reserved method, plain trees). */
    MethodInfo(ServiceKey service, Method method, MethodRef ref, boolean async, Class<?> resultType, int timeoutMillis) {
        this.service = service;
        this.method = method;
        this.ref = ref;
        this.async = async;
        this.resultType = resultType;
        this.timeoutMillis = timeoutMillis;
    }

    private static Class<?> box(Class<?> c) {
        if (!c.isPrimitive()) {
            return c;
        }
        return java.lang.invoke.MethodType.methodType(c).wrap().returnType();
    }
}
