package io.kestrel.rpc.api.generic;

/**
 * One parameter of a method.
 *
 * @param name its name when the interface was compiled with {@code -parameters}, else {@code arg0}, {@code arg1}, ...
 * @param namePresent whether {@code name} is the source name (compiled with {@code -parameters})
 * @param type its declared type
 */
public record ParameterMetadata(String name, boolean namePresent, TypeInfo type) {
}
