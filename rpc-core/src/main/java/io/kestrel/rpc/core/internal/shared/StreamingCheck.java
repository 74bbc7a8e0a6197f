package io.kestrel.rpc.core.internal.shared;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.internal.StreamSignature;
import java.lang.reflect.Method;

/** A service with streaming methods is refused on the dubbo protocol, at export and at refer alike. */
public final class StreamingCheck {
    private StreamingCheck() {
    }

    /**
     * Refuses a service interface with streaming methods on the dubbo protocol (and any shape
     * {@link StreamSignature#of} refuses on any protocol).
     *
     * @param what "export of ..." or "reference ...", for the message
     */
    public static void check(Class<?> serviceInterface, String protocol, String what) {
        for (Method m : RemoteMethods.of(serviceInterface)) {
            if (StreamSignature.of(m) != null && ProtocolConfig.DUBBO.equals(protocol)) {
                throw new IllegalArgumentException(what + ": " + serviceInterface.getName() + "#" + m.getName()
                        + " is a streaming method (a StreamObserver parameter), and the dubbo protocol carries no"
                        + " streams. Use the native protocol (protocol name \"" + ProtocolConfig.KESTREL + "\") for"
                        + " this service, or move the streaming methods to an interface exported there");
            }
        }
    }
}
