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
     * The serializer for a frame with this serialization id.
     *
     * @throws io.kestrel.rpc.api.RpcException (a {@link io.kestrel.rpc.api.BadRequestException})
     *     naming the id when it is unknown or not accepted by this service
     */
    Serializer serializer(byte serializationId);

    /**
     * Runs the method. Returns its value, or a {@link java.util.concurrent.CompletionStage} for an
     * asynchronous method; throws what the method threw (unwrapped).
     */
    Object invoke(Object[] arguments) throws Throwable;
}
