package io.kestrel.rpc.api.serialization;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a {@link Serializer} is created with: the allowlist it enforces, the classes to register (in
 * order, from a {@link SerializationOptimizer}), whether compatible mode is on, and the
 * {@link DecodeLimits} decoding is held to. Immutable.
 */
public final class SerializationOptions {
    private final ClassAllowlist allowlist;
    private final List<Class<?>> registeredClasses;
    private final boolean compatible;
    private final DecodeLimits decodeLimits;
    private final String optimizerName;

    private SerializationOptions(Builder b) {
        this.optimizerName = b.optimizerName;
        this.allowlist = b.allowlist;
        this.registeredClasses = List.copyOf(b.registeredClasses);
        this.compatible = b.compatible;
        this.decodeLimits = b.decodeLimits;
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

    /** The class name of the optimizer the classes came from, or null when none was given. */
    public String optimizerName() {
        return optimizerName;
    }

    /**
     * For messages: which classes this side registers, e.g. "optimizer com.example.MyOptimizer (12 classes)",
     * or "no optimizer (no classes registered)".
     */
    public String registrationDescription() {
        if (registeredClasses.isEmpty()) {
            return optimizerName == null ? "no optimizer (no classes registered)"
                    : "optimizer " + optimizerName + " (no classes registered)";
        }
        return (optimizerName == null ? "no optimizer" : "optimizer " + optimizerName) + " ("
                + registeredClasses.size() + " classes registered)";
    }

    /** Whether readers must tolerate fields added, removed or reordered by the writer. Default false. */
    public boolean compatible() {
        return compatible;
    }

    /**
     * The limits every decode is held to: those of the call's {@link DecodeBudget}, or these when the
     * caller passes none. Default {@link DecodeLimits#defaults()}.
     */
    public DecodeLimits decodeLimits() {
        return decodeLimits;
    }

    @Override
    public String toString() {
        return "SerializationOptions{registered=" + registeredClasses.size() + ", compatible=" + compatible
                + ", " + decodeLimits + ", " + allowlist + "}";
    }

    public static final class Builder {
        private ClassAllowlist allowlist = ClassAllowlist.withDefaults();
        private final List<Class<?>> registeredClasses = new ArrayList<>();
        private boolean compatible;
        private DecodeLimits decodeLimits = DecodeLimits.defaults();
        private String optimizerName;

        private Builder() {
        }

        /** Default: {@link ClassAllowlist#withDefaults()}. */
        public Builder allowlist(ClassAllowlist allowlist) {
            this.allowlist = Objects.requireNonNull(allowlist, "allowlist");
            return this;
        }

        /** Registers the optimizer's classes (in its order) and allows them. */
        public Builder optimizer(SerializationOptimizer optimizer) {
            this.optimizerName = optimizer.getClass().getName();
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

        /** Default: {@link DecodeLimits#defaults()} (the system properties, else the built-in defaults). */
        public Builder decodeLimits(DecodeLimits decodeLimits) {
            this.decodeLimits = Objects.requireNonNull(decodeLimits, "decodeLimits");
            return this;
        }

        public SerializationOptions build() {
            registeredClasses.forEach(allowlist::allowClass);
            return new SerializationOptions(this);
        }
    }
}
