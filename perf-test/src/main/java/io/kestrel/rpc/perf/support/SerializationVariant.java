package io.kestrel.rpc.perf.support;

import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.SerializationOptimizer;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.api.serialization.Serializer;
import java.util.ServiceConfigurationError;

/**
 * A serialization as perf-test names it: an installed serialization, with {@value #COMPATIBLE_SUFFIX}
 * for its compatible mode ("kryo", "fory-compatible"). Used for the framework's systems, the soak
 * provider, the encodings of the report and the JMH codecs alike.
 *
 * @param serialization the installed serialization's name
 * @param compatible whether its compatible mode is asked for
 */
public record SerializationVariant(String serialization, boolean compatible) {
    /** Suffix of a name that asks for the compatible mode, e.g. "fory-compatible". */
    public static final String COMPATIBLE_SUFFIX = "-compatible";

    /** The variant called {@code name}, e.g. "kryo" or "kryo-compatible". */
    public static SerializationVariant of(String name) {
        boolean compatible = name.endsWith(COMPATIBLE_SUFFIX);
        return new SerializationVariant(
                compatible ? name.substring(0, name.length() - COMPATIBLE_SUFFIX.length()) : name, compatible);
    }

    /** Whether the serialization is installed (on the class path and loadable). */
    public boolean isInstalled() {
        try {
            Serializations.installed().byName(serialization);
            return true;
        } catch (IllegalArgumentException | ServiceConfigurationError e) {
            return false;
        }
    }

    /** A serializer with the classes of {@code optimizer} registered. */
    public Serializer create(SerializationOptimizer optimizer) {
        return create(options().optimizer(optimizer));
    }

    /**
     * A serializer without registrations (class names on the wire); the allowlist admits the
     * defaults and {@code allowedPackages}.
     */
    public Serializer createUnregistered(String... allowedPackages) {
        ClassAllowlist allowlist = ClassAllowlist.withDefaults();
        for (String p : allowedPackages) {
            allowlist.allowPackage(p);
        }
        return create(options().allowlist(allowlist));
    }

    private SerializationOptions.Builder options() {
        return SerializationOptions.builder().compatible(compatible);
    }

    private Serializer create(SerializationOptions.Builder options) {
        return Serializations.installed().byName(serialization).create(options.build());
    }
}
