package io.kestrel.rpc.serialization.internal;

import io.kestrel.rpc.api.serialization.ClassAllowlist;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one place where the serializers ask the {@link ClassAllowlist} about a class name read from a
 * stream. It delegates to the allowlist, with one narrow correction: a {@code java.*} class that is
 * a {@link Throwable} (looked up, uninitialized, in the platform class loader only) is accepted even
 * if a deny prefix of the allowlist happens to match it. The allowlist denies the prefixes
 * {@code java.lang.Runtime} and {@code java.lang.Thread} (meant for the classes {@code Runtime} and
 * {@code Thread}), which also match {@code java.lang.RuntimeException} and
 * {@code java.lang.ThreadDeath}; every unchecked exception has {@code RuntimeException} as a
 * superclass, and JDK-serialized exceptions name it. The allowlist itself documents JDK exceptions
 * as allowed. Remove this correction once the allowlist matches those entries exactly.
 *
 * <p>Thread-safe. A refusal throws the allowlist's own
 * {@link io.kestrel.rpc.api.ClassNotAllowedException} (naming the class and the setting that allows it).
 */
public final class ClassFilter {
    private final ClassAllowlist allowlist;
    /** JDK throwables accepted by the correction; bounded by the number of such classes in the JDK. */
    private final Set<String> jdkThrowables = ConcurrentHashMap.newKeySet();

    public ClassFilter(ClassAllowlist allowlist) {
        this.allowlist = Objects.requireNonNull(allowlist, "allowlist");
    }

    /** Throws {@link io.kestrel.rpc.api.ClassNotAllowedException} unless the class may be read. */
    public void check(String className) {
        if (!isAllowed(className)) {
            throw allowlist.refused(className);
        }
    }

    /** Whether a class of this name may be read. */
    public boolean isAllowed(String className) {
        return allowlist.isAllowed(className) || jdkThrowables.contains(className) || isJdkThrowable(className);
    }

    public ClassAllowlist allowlist() {
        return allowlist;
    }

    private boolean isJdkThrowable(String name) {
        if (name == null || !name.startsWith("java.")) {
            return false;
        }
        try {
            Class<?> c = Class.forName(name, false, ClassLoader.getPlatformClassLoader());
            if (Throwable.class.isAssignableFrom(c)) {
                jdkThrowables.add(name);
                return true;
            }
            return false;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return "ClassFilter{" + allowlist + "}";
    }
}
