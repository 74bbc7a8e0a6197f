package io.kestrel.rpc.api.generic;

import java.util.concurrent.CompletableFuture;

/**
 * A reference to a remote service without its interface class: methods are named by their name and
 * parameter type names, arguments and results are plain trees. Obtain one with
 * {@code runtime.refer(ReferenceConfig.generic("com.example.UserService").version("1.0").build())}
 * (registry or direct mode, every reference setting applies). Thread-safe.
 *
 * <p><b>Plain trees</b> are {@code Map<String, Object>}, {@code List}, {@code String}, {@code Number}
 * (Integer, Long, Short, Byte, Double, Float, BigInteger, BigDecimal), {@code Boolean} and {@code null},
 * nested in any way. The provider converts each argument tree to the method's declared parameter type
 * (maps to beans and records by property name, lists to collections and arrays, strings to enums by
 * name, ISO-8601 strings or epoch milliseconds to dates) and the result back to a tree (beans and
 * records to maps of their properties, collections and arrays to lists, enums to their names, dates and
 * times to ISO-8601 strings, {@code byte[]} to a Base64 string). It only ever creates the types the
 * method declares: a map naming a class ({@code "class"}, {@code "@type"}, {@code "$type"}, ...) is
 * refused, as is a declared type that is an interface or abstract class other than a collection or map,
 * and every class is checked against the provider's allowlist before it is used.
 *
 * <p>Errors: an unknown method or parameter type names fails with
 * {@link io.kestrel.rpc.api.ServiceNotFoundException} naming the method's real signatures; an argument
 * that does not convert fails with {@link io.kestrel.rpc.api.BadRequestException} naming the argument,
 * the path inside it and the declared type; what the service throws arrives as its own type when this
 * side can load it, else as {@link io.kestrel.rpc.api.RemoteInvocationException} with its class name and
 * message.
 */
public interface GenericService {
    /**
     * Calls {@code method} and waits for its result (never on a Netty event-loop thread).
     *
     * @param method the method's name, e.g. {@code "find"}
     * @param parameterTypes the declared parameter types' names as {@link Class#getName()} or
     *     {@link Class#getTypeName()} writes them ({@code "long"}, {@code "java.lang.String"},
     *     {@code "com.example.User"}, {@code "java.lang.String[]"}); null only when the method's name and
     *     the number of arguments pick exactly one method
     * @param args the arguments as plain trees, one per parameter; null for none
     * @return the result as a plain tree (null for void methods); for a method returning a
     *     {@code CompletableFuture}, the future's value
     * @throws IllegalArgumentException when an argument is not a plain tree or the counts differ
     */
    Object $invoke(String method, String[] parameterTypes, Object[] args);

    /**
     * {@link #$invoke} without waiting: the future completes with the result tree or the failure, on the
     * runtime's callback executor (never on an event loop).
     */
    CompletableFuture<Object> $invokeAsync(String method, String[] parameterTypes, Object[] args);

    /**
     * What a provider of this service describes: its methods with parameter and return types, the
     * serializations it accepts, the beans and enums its signatures reach. Asks a provider the first time
     * and caches the answer per provider address.
     */
    ServiceMetadata $metadata();
}
