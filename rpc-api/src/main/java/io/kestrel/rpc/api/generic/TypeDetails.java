package io.kestrel.rpc.api.generic;

import java.util.List;

/**
 * A bean, record or enum reached from a service's signatures, described once (types that refer to each
 * other, or to themselves, are described once each, so the description has no cycles).
 *
 * @param className the class's {@link Class#getName()}
 * @param kind {@link TypeKind#BEAN} or {@link TypeKind#ENUM}
 * @param record whether a BEAN is a Java record (built through its canonical constructor)
 * @param properties a BEAN's properties in declaration order (superclass first); empty for an ENUM
 * @param constants an ENUM's constant names in declaration order; empty for a BEAN
 */
public record TypeDetails(String className, TypeKind kind, boolean record, List<PropertyMetadata> properties,
        List<String> constants) {
    public TypeDetails {
        properties = List.copyOf(properties);
        constants = List.copyOf(constants);
    }
}
