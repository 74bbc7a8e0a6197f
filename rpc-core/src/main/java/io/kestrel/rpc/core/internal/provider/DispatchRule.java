package io.kestrel.rpc.core.internal.provider;

import io.kestrel.rpc.api.NonBlocking;
import io.kestrel.rpc.api.config.Dispatch;
import java.lang.reflect.Method;
import java.util.concurrent.CompletionStage;

/**
 * Whether a provider runs an exported method on the connection's I/O thread (see {@link Dispatch}):
 * {@code direct} always, {@code pool} never, {@code auto} for a method marked {@link NonBlocking}
 * (on itself, or on the interface declaring it or the one exported) and for a method returning a
 * {@link CompletionStage}, whose work is asynchronous by contract.
 */
final class DispatchRule {
    private DispatchRule() {
    }

    static boolean runsOnIoThread(Dispatch dispatch, Class<?> serviceInterface, Method method) {
        return switch (dispatch) {
            case DIRECT -> true;
            case POOL -> false;
            case AUTO -> method.isAnnotationPresent(NonBlocking.class)
                    || method.getDeclaringClass().isAnnotationPresent(NonBlocking.class)
                    || serviceInterface.isAnnotationPresent(NonBlocking.class)
                    || CompletionStage.class.isAssignableFrom(method.getReturnType());
        };
    }
}
