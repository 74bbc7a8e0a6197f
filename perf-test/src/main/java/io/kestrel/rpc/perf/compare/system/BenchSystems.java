package io.kestrel.rpc.perf.compare.system;

import io.kestrel.rpc.api.config.Dispatch;
import io.kestrel.rpc.perf.support.ObservedRpc;
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

    /** Suffix of the framework systems that run over TLS (see {@link io.kestrel.rpc.perf.support.BenchTls}). */
    public static final String TLS = "-tls";

    /** Suffix of a framework system with metrics and tracing on both ends. */
    public static final String OBSERVED = "-observed";

    /**
     * Suffix of a framework system with metrics and tracing on both ends, the tracing straight on the
     * OpenTelemetry API ({@code KestrelOpenTelemetry}) instead of Micrometer Observation.
     */
    public static final String OTEL = "-otel";

    /**
     * Suffix of a framework system whose provider dispatches the benchmark service {@code direct} (on the I/O
     * thread), where the plain system keeps the default ({@code auto}: the blocking methods on the business pool).
     * Both run in the default matrix next to their minimal RPC, so one run reads the pool and direct against it.
     */
    public static final String DIRECT = "-direct";

    /**
     * Separates a system's name from runtime settings its provider JVM runs with: {@code kestrel-kryo@provider.batchCalls=false}
     * is {@code kestrel-kryo} with {@code -Dkestrel.rpc.provider.batchCalls=false} on the server JVM (several joined
     * by {@code +}; one starting {@code perf.} is the benchmark's own, {@code kestrel-kryo@perf.threads=virtual}), so
     * an A/B of a provider setting runs in one run, each side meeting the same machine load.
     */
    public static final String SERVER_SETTINGS = "@";

    private static final java.util.regex.Pattern SETTING = java.util.regex.Pattern.compile("[A-Za-z][A-Za-z0-9.]*=[A-Za-z0-9._-]+");

    /** The serializations measured with metrics and tracing on as well as off. */
    public static final List<String> OBSERVED_SERIALIZATIONS = List.of("kryo", "fory");

    /**
     * Every system, in run order: the raw echo first, so that ratios can be shown as results arrive;
     * each framework system right after the minimal RPC of its serialization ({@link RawRpcSystem}),
     * and each TLS and observed system right after its plain one, so that they meet the same machine load.
     */
    public static final List<String> ALL = List.of("raw-netty",
            "raw-rpc-kryo", "kestrel-kryo", "kestrel-kryo" + DIRECT, "kestrel-kryo" + TLS, "kestrel-kryo" + OBSERVED, "kestrel-kryo" + OTEL,
            "raw-rpc-fst", "kestrel-fst", "raw-rpc-hessian2", "kestrel-hessian2",
            "raw-rpc-fastjson2", "kestrel-fastjson2", "raw-rpc-java", "kestrel-java",
            "raw-rpc-fory", "kestrel-fory", "kestrel-fory" + DIRECT, "kestrel-fory" + TLS, "kestrel-fory" + OBSERVED, "kestrel-fory" + OTEL,
            "raw-rpc-kryo-compatible", "kestrel-kryo-compatible", "raw-rpc-fory-compatible", "kestrel-fory-compatible",
            "rest-netty", "rest-tomcat");

    private static final String GROUPS = " and the groups 'all', 'kestrel', 'raw-rpc', 'observed', 'rest', 'dubbo' (kestrel-dubbo-hessian2, dubbo-hessian2; also dubbo-fastjson2 and kestrel-dubbo-fastjson2)";

    /**
     * The serialization variant a framework or raw-rpc system uses ("kryo", "fory-compatible"; also
     * for "kestrel-kryo-tls"), or null for the other systems.
     */
    public static String variantOf(String system) {
        system = base(system);
        String rest;
        if (system.startsWith(RawRpcSystem.PREFIX)) {
            rest = system.substring(RawRpcSystem.PREFIX.length());
        } else if (system.startsWith("kestrel-")) {
            rest = system.substring("kestrel-".length());
            if (rest.endsWith(TLS)) {
                rest = rest.substring(0, rest.length() - TLS.length());
            } else if (rest.endsWith(OBSERVED)) {
                rest = rest.substring(0, rest.length() - OBSERVED.length());
            } else if (rest.endsWith(OTEL)) {
                rest = rest.substring(0, rest.length() - OTEL.length());
            } else if (rest.endsWith(DIRECT)) {
                rest = rest.substring(0, rest.length() - DIRECT.length());
            }
        } else {
            return null;
        }
        return SERIALIZATIONS.contains(rest) ? rest : null;
    }

    /** The system without its provider settings ({@link #SERVER_SETTINGS}). */
    public static String base(String system) {
        int at = system.indexOf(SERVER_SETTINGS);
        return at < 0 ? system : system.substring(0, at);
    }

    /**
     * The server JVM flags of a system's provider settings ({@link #SERVER_SETTINGS}); none for a plain name.
     *
     * @throws IllegalArgumentException for a setting that is not {@code name=value}
     */
    public static List<String> serverFlags(String system) {
        int at = system.indexOf(SERVER_SETTINGS);
        if (at < 0) {
            return List.of();
        }
        List<String> flags = new ArrayList<>();
        for (String setting : system.substring(at + 1).split("\\+")) {
            if (!SETTING.matcher(setting).matches()) {
                throw new IllegalArgumentException("System '" + system + "': provider setting '" + setting
                        + "' is not name=value (letters, digits and dots; e.g. kestrel-kryo@provider.batchCalls=false)");
            }
            flags.add((setting.startsWith("perf.") ? "-Dkestrel." : "-Dkestrel.rpc.") + setting);
        }
        return flags;
    }

    /** Whether a system has asynchronous calls for the pipelined workload (the framework and raw-rpc systems). */
    public static boolean hasAsync(String system) {
        return variantOf(system) != null;
    }

    /** The minimal RPC a system is read against ({@code raw-rpc-<variant>}), or null if it has none. */
    public static String rawRpcOf(String system) {
        String variant = variantOf(system);
        return variant == null || system.startsWith(RawRpcSystem.PREFIX) ? null : RawRpcSystem.PREFIX + variant;
    }

    /** Stock Apache Dubbo systems (serializations), run on a class path of their own ({@link StockDubboSystem}). */
    public static final List<String> DUBBO_SERIALIZATIONS = List.of("hessian2", "fastjson2");

    /**
     * The Dubbo systems of the group "dubbo", in run order (the framework's provider first, stock Dubbo right
     * after, so both meet the same machine load). Not in {@link #ALL}: they need the module perf-test-dubbo built.
     */
    public static final List<String> DUBBO = List.of(StockDubboSystem.KESTREL_PREFIX + "hessian2",
            StockDubboSystem.PREFIX + "hessian2");

    private BenchSystems() {
    }

    /**
     * The system called {@code name}.
     *
     * @throws IllegalArgumentException naming the known systems if there is none
     */
    public static BenchSystem create(String name, SystemSettings settings) {
        serverFlags(name); // checked
        String n = base(name).trim().toLowerCase(Locale.ROOT);
        if (n.startsWith("kestrel-") && SERIALIZATIONS.contains(n.substring("kestrel-".length()))) {
            return new KestrelRpcSystem(n.substring("kestrel-".length()), settings, false, null);
        }
        if (n.startsWith("kestrel-") && n.endsWith(TLS)
                && SERIALIZATIONS.contains(n.substring("kestrel-".length(), n.length() - TLS.length()))) {
            return new KestrelRpcSystem(n.substring("kestrel-".length(), n.length() - TLS.length()), settings, true, null);
        }
        if (n.startsWith("kestrel-") && n.endsWith(OBSERVED)
                && OBSERVED_SERIALIZATIONS.contains(n.substring("kestrel-".length(), n.length() - OBSERVED.length()))) {
            return new KestrelRpcSystem(n.substring("kestrel-".length(), n.length() - OBSERVED.length()), settings, false,
                    ObservedRpc.Tracing.OBSERVATION);
        }
        if (n.startsWith("kestrel-") && n.endsWith(OTEL)
                && OBSERVED_SERIALIZATIONS.contains(n.substring("kestrel-".length(), n.length() - OTEL.length()))) {
            return new KestrelRpcSystem(n.substring("kestrel-".length(), n.length() - OTEL.length()), settings, false,
                    ObservedRpc.Tracing.OPENTELEMETRY);
        }
        if (n.startsWith("kestrel-") && n.endsWith(DIRECT)
                && OBSERVED_SERIALIZATIONS.contains(n.substring("kestrel-".length(), n.length() - DIRECT.length()))) {
            return new KestrelRpcSystem(n.substring("kestrel-".length(), n.length() - DIRECT.length()), settings, false,
                    null, Dispatch.DIRECT);
        }
        if (n.startsWith(RawRpcSystem.PREFIX) && SERIALIZATIONS.contains(n.substring(RawRpcSystem.PREFIX.length()))) {
            return new RawRpcSystem(n.substring(RawRpcSystem.PREFIX.length()), settings);
        }
        if (n.startsWith(StockDubboSystem.PREFIX)
                && DUBBO_SERIALIZATIONS.contains(n.substring(StockDubboSystem.PREFIX.length()))) {
            return new StockDubboSystem(n.substring(StockDubboSystem.PREFIX.length()), settings, false);
        }
        if (n.startsWith(StockDubboSystem.KESTREL_PREFIX)
                && DUBBO_SERIALIZATIONS.contains(n.substring(StockDubboSystem.KESTREL_PREFIX.length()))) {
            return new StockDubboSystem(n.substring(StockDubboSystem.KESTREL_PREFIX.length()), settings, true);
        }
        return switch (n) {
            case "raw-netty" -> new RawNettySystem(settings);
            case "rest-netty" -> new NettyHttpSystem(settings);
            case "rest-tomcat" -> new TomcatHttpSystem(settings);
            default -> throw new IllegalArgumentException("Unknown system '" + name + "'; known: " + ALL + GROUPS);
        };
    }

    /**
     * Expands a comma-separated selection ("all", "kestrel", "raw-rpc", "observed", "rest", or system names) into system
     * names in run order, without duplicates.
     */
    public static List<String> expand(String selection) {
        Set<String> wanted = new LinkedHashSet<>();
        for (String part : selection.split(",")) {
            String p = part.trim();
            p = base(p).toLowerCase(Locale.ROOT) + p.substring(base(p).length());
            if (p.isEmpty()) {
                continue;
            }
            switch (p) {
                case "all" -> wanted.addAll(ALL);
                case "kestrel" -> ALL.stream().filter(s -> s.startsWith("kestrel-")).forEach(wanted::add);
                case "raw-rpc" -> ALL.stream().filter(s -> s.startsWith(RawRpcSystem.PREFIX)).forEach(wanted::add);
                case "rest" -> ALL.stream().filter(s -> s.startsWith("rest-")).forEach(wanted::add);
                case "dubbo" -> wanted.addAll(DUBBO);
                case "observed" -> OBSERVED_SERIALIZATIONS.forEach(s -> {
                    wanted.add("kestrel-" + s);
                    wanted.add("kestrel-" + s + OBSERVED);
                    wanted.add("kestrel-" + s + OTEL);
                });
                default -> {
                    boolean stockDubbo = p.startsWith(StockDubboSystem.PREFIX)
                            && DUBBO_SERIALIZATIONS.contains(p.substring(StockDubboSystem.PREFIX.length()))
                            || p.startsWith(StockDubboSystem.KESTREL_PREFIX)
                            && DUBBO_SERIALIZATIONS.contains(p.substring(StockDubboSystem.KESTREL_PREFIX.length()));
                    serverFlags(p); // checked
                    if (!ALL.contains(base(p)) && !stockDubbo) {
                        throw new IllegalArgumentException("Unknown system '" + part + "'; known: " + ALL + GROUPS);
                    }
                    wanted.add(p);
                }
            }
        }
        List<String> ordered = new ArrayList<>();
        for (String s : ALL) {
            if (wanted.remove(s)) {
                ordered.add(s);
            }
        }
        ordered.addAll(wanted); // the Dubbo systems, not in the default matrix, in the order given
        return ordered;
    }
}
