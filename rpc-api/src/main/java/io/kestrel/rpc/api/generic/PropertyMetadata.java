package io.kestrel.rpc.api.generic;

/**
 * One property of a bean or record as the tree carries it: its key in the map and its type.
 *
 * @param name the map key (the field or record component name)
 * @param type its type
 */
public record PropertyMetadata(String name, TypeInfo type) {
}
