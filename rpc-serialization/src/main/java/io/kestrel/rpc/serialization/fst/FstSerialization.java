package io.kestrel.rpc.serialization.fst;

import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.serialization.Serialization;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.api.serialization.SerializerIds;
import io.kestrel.rpc.serialization.internal.SerializerLibrary;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;

/**
 * fst (wire id {@value SerializerIds#FST}, name "fst"). Fast and compact, shares references, but it
 * reaches into JDK classes by reflection, so on JDK 17+ the JVM must be started with the
 * {@code --add-opens} flags in {@link #REQUIRED_OPENS} (the root POM's {@code fst.jvm.opens}
 * property). {@link #create} checks them and fails with the exact flags to add, instead of an
 * {@code InaccessibleObjectException} in the middle of a call.
 *
 * <p>No compatible mode: fst cannot tolerate field changes between versions.
 */
public final class FstSerialization implements Serialization {
    /**
     * {@code module/package} pairs fst needs opened to the unnamed module (where fst lives on the
     * class path). Keep in sync with the {@code fst.jvm.opens} property in the root POM.
     */
    public static final List<String> REQUIRED_OPENS = List.of(
            "java.base/java.lang", "java.base/java.util", "java.base/java.math", "java.base/java.util.concurrent",
            "java.base/java.net", "java.base/java.text", "java.base/java.time", "java.base/java.lang.reflect",
            "java.base/java.io", "java.base/java.nio", "java.sql/java.sql");

    @Override
    public byte id() {
        return SerializerIds.FST;
    }

    @Override
    public String name() {
        return "fst";
    }

    @Override
    public boolean supportsCompatibleMode() {
        return false;
    }

    /** True: every value read is tracked, hash keys are costed before insertion ({@code BoundedFstObjectInput}). */
    @Override
    public boolean boundsDecodeWork() {
        return true;
    }

    /**
     * @throws IllegalArgumentException if compatible mode is asked for
     * @throws SerializationException if the JVM lacks the {@code --add-opens} fst needs; the message
     *     lists exactly the missing flags
     */
    @Override
    public Serializer create(SerializationOptions options) {
        SerializerLibrary.FST.require();
        if (options.compatible()) {
            throw new IllegalArgumentException("fst cannot tolerate field changes between versions; use kryo, "
                    + "hessian2 or fastjson2 with compatible=true, or turn compatible off for fst");
        }
        List<String> missing = missingOpens(FstSerialization::isOpenToFst);
        if (!missing.isEmpty()) {
            throw new SerializationException("fst needs reflective access to JDK internals on Java "
                    + Runtime.version().feature() + ". Add these flags to the java command line: " + String.join(" ", missing)
                    + (missing.size() < REQUIRED_OPENS.size() ? " (the full set fst needs is: " + allOpensFlags() + ")" : "")
                    + "; or choose another serialization (kryo, hessian2, fastjson2, java) that needs none");
        }
        return new FstSerializer(options);
    }

    /** The {@code --add-opens} flags (from {@link #REQUIRED_OPENS}) that {@code isOpen} says are missing. */
    static List<String> missingOpens(BiPredicate<String, String> isOpen) {
        List<String> missing = new ArrayList<>();
        for (String pair : REQUIRED_OPENS) {
            int slash = pair.indexOf('/');
            String module = pair.substring(0, slash);
            String pkg = pair.substring(slash + 1);
            if (!isOpen.test(module, pkg)) {
                missing.add(flag(pair));
            }
        }
        return missing;
    }

    /** All flags fst needs, space-separated, ready to paste. */
    static String allOpensFlags() {
        StringBuilder sb = new StringBuilder();
        for (String pair : REQUIRED_OPENS) {
            sb.append(sb.length() == 0 ? "" : " ").append(flag(pair));
        }
        return sb.toString();
    }

    private static String flag(String pair) {
        return "--add-opens=" + pair + "=ALL-UNNAMED";
    }

    private static boolean isOpenToFst(String moduleName, String pkg) {
        Module fstModule = org.nustaq.serialization.FSTConfiguration.class.getModule();
        return ModuleLayer.boot().findModule(moduleName)
                .map(m -> m.isOpen(pkg, fstModule))
                .orElse(true); // a module that is not present (e.g. java.sql in a jlinked image) cannot be needed
    }

    @Override
    public String toString() {
        return "fst(" + id() + ")";
    }
}
