package io.kestrel.rpc.api.generic;

import java.util.List;

/**
 * One remote method of a service.
 *
 * @param name the method's name
 * @param parameters its parameters in order
 * @param returnType what it returns; for a method returning {@code CompletableFuture<T>}, {@code T}
 * @param async whether it returns a {@code CompletableFuture} or {@code CompletionStage}
 * @param exceptionTypes the class names of the exceptions it declares ({@code throws})
 */
public record MethodMetadata(String name, List<ParameterMetadata> parameters, TypeInfo returnType, boolean async,
        List<String> exceptionTypes) {
    public MethodMetadata {
        parameters = List.copyOf(parameters);
        exceptionTypes = List.copyOf(exceptionTypes);
    }

    /** The parameter type names to pass to {@link GenericService#$invoke} for this method. */
    public String[] parameterTypeNames() {
        return parameters.stream().map(p -> p.type().className()).toArray(String[]::new);
    }

    /** {@code name(type, type)} with the types' Java names, for display. */
    public String signature() {
        StringBuilder sb = new StringBuilder(name).append('(');
        for (int i = 0; i < parameters.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(parameters.get(i).type().name());
        }
        return sb.append(')').toString();
    }
}
