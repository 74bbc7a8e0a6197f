package io.kestrel.rpc.core.internal.shared;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

/**
 * Which methods of a service interface go over the wire: public abstract ones. Object's methods,
 * default methods (run locally on the proxy) and static methods do not. The one place provider,
 * consumer and registry record agree on this.
 */
public final class RemoteMethods {
    private RemoteMethods() {
    }

    static boolean isRemote(Method m) {
        return m.getDeclaringClass() != Object.class && !m.isDefault() && !Modifier.isStatic(m.getModifiers());
    }

    public static List<Method> of(Class<?> serviceInterface) {
        List<Method> methods = new ArrayList<>();
        for (Method m : serviceInterface.getMethods()) {
            if (isRemote(m)) {
                methods.add(m);
            }
        }
        return methods;
    }
}
