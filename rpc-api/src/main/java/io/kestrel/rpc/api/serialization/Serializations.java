package io.kestrel.rpc.api.serialization;

import io.kestrel.rpc.api.spi.ExtensionPoint;
import io.kestrel.rpc.api.spi.Extensions;
import java.util.Map;
import java.util.TreeMap;

/**
 * The serializations on the classpath, found through {@link ExtensionPoint} (so under its class-loader
 * policy) and looked up by name or wire id. Refuses two implementations with the same id or name.
 */
public final class Serializations {
    private static final ExtensionPoint<Serialization> EXTENSIONS = ExtensionPoint.of(Serialization.class,
            "serialization", Serialization::name,
            "Is the rpc-serialization jar (or your plug-in) a dependency?").listedAs(s -> s.name() + "=" + s.id());
    /** The table built for the loader seen last; rebuilt when a thread with another loader asks. */
    private static volatile Serializations last;

    private final Extensions<Serialization> found;
    private final Serialization[] byId = new Serialization[256];

    private Serializations(Extensions<Serialization> found) {
        this.found = found;
        for (Serialization s : found.all()) {
            Serialization clash = byId[s.id() & 0xFF];
            if (clash != null) {
                throw new IllegalStateException("Serializations " + clash.getClass().getName() + " and "
                        + s.getClass().getName() + " both use wire id " + s.id() + "; ids must be unique");
            }
            byId[s.id() & 0xFF] = s;
        }
    }

    /** The serializations visible from the calling thread (see {@link ExtensionPoint} for which loader). */
    public static Serializations installed() {
        Extensions<Serialization> found = EXTENSIONS.installed();
        Serializations s = last;
        if (s == null || s.found != found) {
            s = new Serializations(found);
            last = s;
        }
        return s;
    }

    /**
     * The serialization with this name ("kryo", "fst", "hessian2", "fastjson2", "java", ...).
     * "fastjson" and "hessian" are accepted as aliases of "fastjson2" and "hessian2".
     *
     * @throws IllegalArgumentException naming the known serializations if there is none
     */
    public Serialization byName(String name) {
        String key = name == null ? "" : name.trim().toLowerCase(java.util.Locale.ROOT);
        if (key.equals("fastjson")) {
            key = "fastjson2";
        } else if (key.equals("hessian")) {
            key = "hessian2";
        }
        return found.find(key).orElseThrow(() -> found.unknown(name));
    }

    /** The serialization with this wire id, or null if none is installed. */
    public Serialization byId(byte id) {
        return byId[id & 0xFF];
    }

    /** Installed names and their ids, e.g. {@code {fastjson2=6, hessian2=2, ...}}. */
    public Map<String, Byte> names() {
        Map<String, Byte> m = new TreeMap<>();
        for (Serialization s : found.all()) {
            m.put(s.name(), s.id());
        }
        return m;
    }
}
