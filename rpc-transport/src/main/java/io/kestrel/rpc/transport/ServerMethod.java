package io.kestrel.rpc.transport;

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
}
