package io.kestrel.rpc.api.serialization;

import java.util.Objects;

/**
 * What a {@link Serialization} knows, before any call, it cannot do with values of a type (see
 * {@link Serialization#problemWith}). The framework asks at export and refer for every type in a
 * service's method signatures and their fields: a {@linkplain #refused() refused} type fails
 * startup, a warning is logged.
 *
 * @param refused true when every value of the type fails (startup is refused), false when only some
 *     values do (a warning)
 * @param reason what goes wrong, naming the type and the format, e.g. "java.util.Optional does not
 *     implement java.io.Serializable, which hessian2 requires"
 */
public record TypeProblem(boolean refused, String reason) {
    public TypeProblem {
        Objects.requireNonNull(reason, "reason");
    }

    /** Every value of the type fails with this format. */
    public static TypeProblem refused(String reason) {
        return new TypeProblem(true, reason);
    }

    /** Some values of the type fail with this format. */
    public static TypeProblem warning(String reason) {
        return new TypeProblem(false, reason);
    }
}
