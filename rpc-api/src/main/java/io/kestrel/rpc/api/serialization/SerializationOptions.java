package io.kestrel.rpc.api.serialization;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a {@link Serializer} is created with: the allowlist it enforces, the classes to register (in
 * order, from a {@link SerializationOptimizer}) and whether compatible mode is on. Immutable.
 */
public final class SerializationOptions {
    private final ClassAllowlist allowlist;
    private final List<Class<?>> registeredClasses;
    private final boolean compatible;

    private SerializationOptions(Builder b) {
        this.allowlist = b.allowlist;
        this.registeredClasses = List.copyOf(b.registeredClasses);
        this.compatible = b.compatible;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The allowlist to check every class name read against; registered classes are already in it. */
    public ClassAllowlist allowlist() {
        return allowlist;
    }

    /** Classes to register ahead of time, in a stable order; empty when there is no optimizer. */
    public List<Class<?>> registeredClasses() {
        return registeredClasses;
    }

    /** Whether readers must tolerate fields added, removed or reordered by the writer. Default false. */
    public boolean compatible() {
        return compatible;
    }

    @Override
    public String toString() {
        return "SerializationOptions{registered=" + registeredClasses.size() + ", compatible=" + compatible
                + ", " + allowlist + "}";
    }

    public static final class Builder {
        private ClassAllowlist allowlist = ClassAllowlist.withDefaults();
        private final List<Class<?>> registeredClasses = new ArrayList<>();
        private boolean compatible;

        private Builder() {
        }

        /** Default: {@link ClassAllowlist#withDefaults()}. */
        public Builder allowlist(ClassAllowlist allowlist) {
            this.allowlist = Objects.requireNonNull(allowlist, "allowlist");
            return this;
        }

        /** Registers the optimizer's classes (in its order) and allows them. */
        public Builder optimizer(SerializationOptimizer optimizer) {
            for (Class<?> c : optimizer.getSerializableClasses()) {
                registerClass(c);
            }
            return this;
        }

        public Builder registerClass(Class<?> type) {
            Objects.requireNonNull(type, "registered class");
            if (!registeredClasses.contains(type)) {
                registeredClasses.add(type);
            }
            return this;
        }

        public Builder compatible(boolean compatible) {
            this.compatible = compatible;
            return this;
        }

        public SerializationOptions build() {
            registeredClasses.forEach(allowlist::allowClass);
            return new SerializationOptions(this);
        }
    }
}
