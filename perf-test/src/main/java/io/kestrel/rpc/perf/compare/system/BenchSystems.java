package io.kestrel.rpc.perf.compare.system;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Creates systems by name; the same names are used on the command line and by the server JVM. */
public final class BenchSystems {
    /** The framework's serializations, in report order. */
    public static final List<String> SERIALIZATIONS = List.of("kryo", "fst", "hessian2", "fastjson2", "java", "fory",
            "kryo-compatible", "fory-compatible");

    /**
     * Every system, in run order: the raw limit first, so that ratios can be shown as results arrive; each
     * TLS system right after its plaintext one, so that the two meet the same machine load.
     */
    public static final List<String> ALL = List.of("raw-netty", "kestrel-kryo", "kestrel-kryo-tls", "kestrel-fst",
            "kestrel-hessian2", "kestrel-fastjson2", "kestrel-java", "kestrel-fory", "kestrel-fory-tls",
            "kestrel-kryo-compatible", "kestrel-fory-compatible", "rest-netty", "rest-tomcat");
    /** Suffix of the framework systems that run over TLS (see {@link io.kestrel.rpc.perf.support.BenchTls}). */
    public static final String TLS = "-tls";

    private BenchSystems() {
    }

    /**
     * The system called {@code name}.
     *
     * @throws IllegalArgumentException naming the known systems if there is none
     */
    public static BenchSystem create(String name, SystemSettings settings) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        if (n.startsWith("kestrel-") && SERIALIZATIONS.contains(n.substring("kestrel-".length()))) {
            return new KestrelRpcSystem(n.substring("kestrel-".length()), false, settings);
        }
        if (n.startsWith("kestrel-") && n.endsWith(TLS)
                && SERIALIZATIONS.contains(n.substring("kestrel-".length(), n.length() - TLS.length()))) {
            return new KestrelRpcSystem(n.substring("kestrel-".length(), n.length() - TLS.length()), true, settings);
        }
        return switch (n) {
            case "raw-netty" -> new RawNettySystem(settings);
            case "rest-netty" -> new NettyHttpSystem(settings);
            case "rest-tomcat" -> new TomcatHttpSystem(settings);
            default -> throw new IllegalArgumentException("Unknown system '" + name + "'; known: " + ALL
                    + " and the groups 'all', 'kestrel', 'rest'");
        };
    }

    /**
     * Expands a comma-separated selection ("all", "kestrel", "rest", or system names) into system
     * names in run order, without duplicates.
     */
    public static List<String> expand(String selection) {
        Set<String> wanted = new LinkedHashSet<>();
        for (String part : selection.split(",")) {
            String p = part.trim().toLowerCase(Locale.ROOT);
            if (p.isEmpty()) {
                continue;
            }
            switch (p) {
                case "all" -> wanted.addAll(ALL);
                case "kestrel" -> ALL.stream().filter(s -> s.startsWith("kestrel-")).forEach(wanted::add);
                case "rest" -> ALL.stream().filter(s -> s.startsWith("rest-")).forEach(wanted::add);
                default -> {
                    if (!ALL.contains(p)) {
                        throw new IllegalArgumentException("Unknown system '" + part + "'; known: " + ALL
                                + " and the groups 'all', 'kestrel', 'rest'");
                    }
                    wanted.add(p);
                }
            }
        }
        List<String> ordered = new ArrayList<>();
        for (String s : ALL) {
            if (wanted.contains(s)) {
                ordered.add(s);
            }
        }
        return ordered;
    }
}
