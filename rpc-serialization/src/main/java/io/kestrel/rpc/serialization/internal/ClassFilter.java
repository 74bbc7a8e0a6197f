package io.kestrel.rpc.serialization.internal;

import io.kestrel.rpc.api.serialization.ClassAllowlist;
import java.util.Objects;

/**
 * The one place where the serializers ask the {@link ClassAllowlist} about a class name read from a
 * stream (JDK exceptions and enums included: the allowlist accepts them itself).
 *
 * <p>Thread-safe. A refusal throws the allowlist's own
 * {@link io.kestrel.rpc.api.ClassNotAllowedException} (naming the class and the setting that allows it).
 */
public final class ClassFilter {
    private final ClassAllowlist allowlist;

    public ClassFilter(ClassAllowlist allowlist) {
        this.allowlist = Objects.requireNonNull(allowlist, "allowlist");
    }

    /** Throws {@link io.kestrel.rpc.api.ClassNotAllowedException} unless the class may be read. */
    public void check(String className) {
        allowlist.check(className);
    }

    /** Whether a class of this name may be read. */
    public boolean isAllowed(String className) {
        return allowlist.isAllowed(className);
    }

    public ClassAllowlist allowlist() {
        return allowlist;
    }

    @Override
    public String toString() {
        return "ClassFilter{" + allowlist + "}";
    }
}
