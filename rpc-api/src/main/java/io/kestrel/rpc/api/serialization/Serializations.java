package io.kestrel.rpc.api.serialization;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The serializations on the classpath, loaded once with {@link ServiceLoader} and looked up by
 * name or wire id. Refuses two implementations with the same id or name.
 */
public final class Serializations {
    private static volatile Serializations instance;

    private final Map<String, Serialization> byName;
    private final Serialization[] byId = new Serialization[256];

    private Serializations(Iterable<Serialization> found) {
        Map<String, Serialization> names = new LinkedHashMap<>();
        for (Serialization s : found) {
            Serialization clash = byId[s.id() & 0xFF];
            if (clash != null) {
                throw new IllegalStateException("Serializations " + clash.getClass().getName() + " and "
                        + s.getClass().getName() + " both use wire id " + s.id() + "; ids must be unique");
            }
            if (names.putIfAbsent(s.name(), s) != null) {
                throw new IllegalStateException("Two serializations are named '" + s.name() + "'");
            }
            byId[s.id() & 0xFF] = s;
        }
        this.byName = Collections.unmodifiableMap(names);
    }

    /** The serializations found on the class path of this class's loader. */
    public static Serializations installed() {
        Serializations s = instance;
        if (s == null) {
            synchronized (Serializations.class) {
                s = instance;
                if (s == null) {
                    s = new Serializations(ServiceLoader.load(Serialization.class, Serializations.class.getClassLoader()));
                    instance = s;
                }
            }
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
        Serialization s = byName.get(key);
        if (s == null) {
            throw new IllegalArgumentException("Unknown serialization '" + name + "'; known: " + names()
                    + ". Is the rpc-serialization jar (or your plug-in) a dependency?");
        }
        return s;
    }

    /** The serialization with this wire id, or null if none is installed. */
    public Serialization byId(byte id) {
        return byId[id & 0xFF];
    }

    /** Installed names and their ids, e.g. {@code {fastjson2=6, hessian2=2, ...}}. */
    public Map<String, Byte> names() {
        Map<String, Byte> m = new TreeMap<>();
        byName.forEach((n, s) -> m.put(n, s.id()));
        return m;
    }
}
