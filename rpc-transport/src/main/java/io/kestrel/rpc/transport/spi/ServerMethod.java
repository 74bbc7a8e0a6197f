package io.kestrel.rpc.transport.spi;

import io.kestrel.rpc.api.security.CallerIdentity;
import io.kestrel.rpc.api.serialization.Serializer;

/**
 * A method the server can run, resolved once per connection from its descriptor by a
 * {@link ServerDispatcher}. Implemented by the invocation layer.
 */
public interface ServerMethod {
    /** "service#method", for messages and logs. */
    String displayName();

    /** Declared parameter types; arguments are decoded with these as the expected types. */
    Class<?>[] parameterTypes();

    /**
     * Whether {@code t} is one of the exceptions the method declares ({@code throws}): part of its
     * contract, so the provider logs it at DEBUG rather than WARN. Default: none declared.
     */
    default boolean declares(Throwable t) {
        return false;
    }

    /**
     * The serializer for frames with this serialization id. Asked once per method reference and
     * id on a connection, not per call.
     *
     * @throws io.kestrel.rpc.api.BadRequestException naming the id when it is unknown or not
     *     accepted by this service
     */
    Serializer serializer(byte serializationId);

    /**
     * Runs the method with the caller's attachments, address and deadline as its call context.
     * Returns its value, or a {@link java.util.concurrent.CompletionStage} for an asynchronous method
     * (or when interceptors run); throws what the method threw (unwrapped), or a
     * {@link RefusedException} for an answer with another status.
     */
    Object invoke(Object[] arguments, IncomingCall call) throws Throwable;

    /**
     * Whether calls of this method run on the connection's I/O thread ({@code dispatch="direct"}):
     * decoded, invoked and answered there, without the hand-off to the business executor. Only for
     * methods that never block. Asked once per method reference on a connection. Default: false.
     */
    default boolean direct() {
        return false;
    }

    /**
     * Its streaming shape, or null for an ordinary (unary) method. For a streaming method, {@link #parameterTypes()}
     * are those sent (all but the observer) and {@link #invoke} adds {@link IncomingCall#responseStream()} as the
     * last argument. Default: null.
     */
    default io.kestrel.rpc.api.internal.StreamSignature stream() {
        return null;
    }

    /**
     * Whether this is a method the framework adds to every service ({@code $invoke}, {@code $metadata}) rather
     * than one of the service interface's. The dubbo protocol does not offer them: Dubbo's generic calls carry
     * class names in their arguments, which Kestrel never follows. Default: false.
     */
    default boolean reserved() {
        return false;
    }

    /**
     * Admits or refuses a call by who makes it: the rule is the invocation layer's; the transport only hands over
     * what the connection proved and answers a refusal with the exception's status and message. Called on the I/O
     * thread for every call, before its arguments are decoded and its serializer chosen (a refused caller costs no
     * deserialization and learns nothing of the service's serializations); must be cheap. The default admits every
     * call.
     *
     * @param caller the connection's verified identity (client certificate, token), or null for an anonymous caller
     * @param anonymousBecause why the caller is anonymous, for the message
     * @throws RefusedException with the status to answer when the call may not run
     */
    default void admit(CallerIdentity caller, String anonymousBecause) {
    }
}
