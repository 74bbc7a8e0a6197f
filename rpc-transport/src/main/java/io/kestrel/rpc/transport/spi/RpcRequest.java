package io.kestrel.rpc.transport.spi;

import io.kestrel.rpc.api.serialization.Serializer;
import java.lang.reflect.Type;
import java.util.Map;

/**
 * One outgoing call as the transport needs it.
 *
 * @param method which method (reuse one instance per method)
 * @param serializer encodes the arguments and decodes the result
 * @param arguments the arguments, one per declared parameter
 * @param attachments string metadata for the provider
 * @param timeoutMillis the call's deadline; also sent so the provider can drop calls nobody waits for
 * @param returnType expected result class (for formats that need it)
 */
public record RpcRequest(MethodRef method, Serializer serializer, Object[] arguments, Map<String, String> attachments,
        int timeoutMillis, Class<?> returnType) {
}
