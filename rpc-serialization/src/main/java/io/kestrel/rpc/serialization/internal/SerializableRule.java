package io.kestrel.rpc.serialization.internal;

import io.kestrel.rpc.api.serialization.TypeProblem;
import java.io.Serializable;
import java.lang.reflect.Modifier;
import java.util.Optional;

/**
 * The type limits shared by the formats built on Java's serialization model (measured, for each
 * format, by {@code TypeProblemTest}): values must implement {@link Serializable}, and some cannot
 * create records. Interfaces, abstract classes and {@code Object} are not judged: the runtime classes decide.
 */
public final class SerializableRule {
    private SerializableRule() {
    }

    /**
     * @param format the format's name, for the message
     * @param records whether the format can read records
     */
    public static Optional<TypeProblem> check(String format, Class<?> type, boolean records) {
        while (type.isArray()) {
            type = type.getComponentType();
        }
        if (type.isPrimitive() || type.isInterface() || Modifier.isAbstract(type.getModifiers()) || type == Object.class) {
            return Optional.empty();
        }
        if (!records && type.isRecord()) {
            return Optional.of(TypeProblem.refused(type.getName() + " is a record, which " + format
                    + " cannot create (it sets fields after construction, and a record's fields are final)"));
        }
        if (!Serializable.class.isAssignableFrom(type)) {
            String hint = type == Optional.class || type.getName().startsWith("java.util.Optional")
                    ? " (use null for \"no value\" in a remote signature)" : " (add implements java.io.Serializable)";
            return Optional.of(TypeProblem.refused(type.getName() + " does not implement java.io.Serializable, which "
                    + format + " requires" + hint));
        }
        return Optional.empty();
    }
}
