package io.kestrel.rpc.api.generic;

import java.util.List;
import java.util.Objects;

/**
 * One use of a type in a signature.
 *
 * @param name the type as written in Java, with type arguments: {@code java.util.List<com.example.User>}
 * @param className the raw class as {@link Class#getName()} writes it ({@code long}, {@code [Ljava.lang.String;},
 *     {@code java.util.List}); what {@link GenericService#$invoke} takes as a parameter type name
 * @param kind its tree shape
 * @param primitive whether it is a primitive (a tree null is refused for it)
 * @param arguments the element type of a COLLECTION or OPTIONAL, the key and value types of a MAP; empty otherwise
 *     (ENUM and BEAN types are described once in {@link ServiceMetadata#types()} under {@code className})
 */
public record TypeInfo(String name, String className, TypeKind kind, boolean primitive, List<TypeInfo> arguments) {
    public TypeInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(className, "className");
        Objects.requireNonNull(kind, "kind");
        arguments = List.copyOf(arguments);
    }
}
