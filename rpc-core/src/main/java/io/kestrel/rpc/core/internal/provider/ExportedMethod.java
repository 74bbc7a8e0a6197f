package io.kestrel.rpc.core.internal.provider;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import io.kestrel.rpc.api.internal.ServerContext;
import io.kestrel.rpc.api.internal.StreamSignature;
import io.kestrel.rpc.api.security.CallerIdentity;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.transport.spi.IncomingCall;
import io.kestrel.rpc.transport.spi.ServerMethod;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Set;

/** One exported method: the implementation, the reflective handle, the accepted serializations. */
final class ExportedMethod implements ServerMethod {
    private final ServiceSerializers serializers;
    private final ServiceKey service;
    private final String displayName;
    private final Object target;
    private final Method method;
    private final Class<?>[] parameterTypes;
    private final Set<Byte> accepted;
    private final ServerInterceptor[] interceptors; // null: none
    private final ServiceAccess access;
    private final boolean direct;
    private final StreamSignature stream; // null: an ordinary method

    ExportedMethod(ServiceKey service, Object target, Method method, ServiceSerializers serializers,
            Set<Byte> accepted, ServerInterceptor[] interceptors, ServiceAccess access, boolean direct) {
        this.serializers = serializers;
        this.direct = direct;
        this.service = service;
        this.displayName = service + "#" + method.getName();
        this.interceptors = interceptors;
        this.access = access;
        this.target = target;
        this.method = method;
        if (Modifier.isPublic(method.getModifiers()) && Modifier.isPublic(method.getDeclaringClass().getModifiers())) {
            // accessible to everyone anyway: spares Method.invoke its access check per call (where the module system
            // refuses this, it checks per call as before)
            method.trySetAccessible();
        }
        this.stream = StreamSignature.of(method);
        this.parameterTypes = stream != null ? stream.wireParameterTypes() : method.getParameterTypes();
        this.accepted = accepted;
    }

    @Override
    public String displayName() {
        return displayName;
    }

    @Override
    public Class<?>[] parameterTypes() {
        return parameterTypes;
    }

    @Override
    public boolean declares(Throwable t) {
        for (Class<?> declared : method.getExceptionTypes()) {
            if (declared.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Serializer serializer(byte id) {
        return serializers.serializerFor(displayName, accepted, id);
    }

    @Override
    public boolean direct() {
        return direct;
    }

    @Override
    public StreamSignature stream() {
        return stream;
    }

    @Override
    public void admit(CallerIdentity caller, String anonymousBecause) {
        access.admit(caller, anonymousBecause);
    }

    @Override
    public Object invoke(Object[] arguments, IncomingCall call) throws Throwable {
        Object previous = ServerContext.enter(call.attachments(), call.remoteAddress(), call.deadlineNanos(),
                call.responseAttachmentsSupplier(), call.caller());
        if (stream != null) {
            arguments = StreamArguments.withObserver(arguments, call.responseStream());
        }
        try {
            if (interceptors != null) {
                return new ServerInvocation(service, method, target, interceptors, arguments, call).run();
            }
            return method.invoke(target, arguments);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        } finally {
            ServerContext.restore(previous);
        }
    }
}
