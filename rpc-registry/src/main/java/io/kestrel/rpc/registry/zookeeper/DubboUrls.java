package io.kestrel.rpc.registry.zookeeper;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.registry.ConsumerInfo;
import io.kestrel.rpc.api.registry.ProviderInfo;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Apache Dubbo's interface-level registry records, both ways: what a provider on the {@code dubbo} protocol
 * writes so that stock Dubbo consumers find it, and how a stock Dubbo provider's record reads as a
 * {@link ProviderInfo}.
 *
 * <p>A Dubbo record is a node name, the URL-encoded form of
 * {@code dubbo://host:port/<interface>?k=v&k=v...}, under {@code <dubbo-root>/<interface>/providers} (or
 * {@code consumers}). As in Dubbo, the parameter values inside the URL are not encoded themselves: the whole
 * URL is encoded once. A value holding '&', '=' or '%' (only a user-chosen application name can) is written
 * URL-encoded, so it cannot split the record. Parameters, named as a Dubbo 3.3.6 provider writes them (seen in
 * ZooKeeper: {@code application, deprecated=false, dubbo=2.0.2, dynamic=true, generic=false, interface, methods,
 * prefer.serialization=hessian2,fastjson2, release, revision, side=provider, timestamp, version}):
 *
 * <pre>
 * application=..  deprecated=false  dubbo=2.0.2  dynamic=true  generic=false  interface=..
 * methods=a,b (sorted)  pid=..  side=provider  timestamp=<start, epoch ms>  serialization=<preferred>
 * prefer.serialization=<accepted, preferred first>  [version=..]  [group=..]  [timeout=ms]  weight=..
 * warmup=<ms; 0 when the service has none, which turns Dubbo's default 10-minute ramp off>  kestrel-version=..
 * </pre>
 */
final class DubboUrls {
    static final String SCHEME = "dubbo";
    /** Dubbo's wire-protocol version parameter ({@code dubbo=2.0.2}), what current Dubbo releases write. */
    static final String DUBBO_PROTOCOL_VERSION = "2.0.2";

    /** Dubbo serialization names and the Kestrel serialization ids they read as (Kestrel's own numbering). */
    private static final Map<String, Byte> SERIALIZATION_IDS = Map.of(
            "hessian2", (byte) 2, "java", (byte) 3, "fastjson2", (byte) 6, "kryo", (byte) 8, "fst", (byte) 9,
            "fory", (byte) 28, "fury", (byte) 28);
    /** Kestrel serialization ids and Dubbo's names for them (Kestrel's fastjson2 is Dubbo's fastjson2). */
    private static final Map<Byte, String> SERIALIZATION_NAMES = Map.of(
            (byte) 2, "hessian2", (byte) 3, "java", (byte) 6, "fastjson2", (byte) 23, "fastjson2", (byte) 8, "kryo",
            (byte) 9, "fst", (byte) 28, "fory");
    /** Dubbo's default when a provider names no serialization. */
    private static final String DEFAULT_SERIALIZATION = "hessian2";

    /** Dubbo parameters a Kestrel record keeps as attributes (everything else Dubbo writes is left out). */
    private static final Set<String> KEPT = Set.of(ProviderInfo.APPLICATION, ProviderInfo.PID, "release",
            ProviderInfo.FRAMEWORK_VERSION);

    /** The timestamp of records that carry no start time: the same for every record of this process. */
    private static final String PROCESS_START =
            Long.toString(java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime());

    private DubboUrls() {
    }

    /** What a node of a Dubbo providers folder means: a provider, or why it is not one for Kestrel. */
    record Parsed(ProviderInfo provider, String skipped) {
        static Parsed skip(String why) {
            return new Parsed(null, why);
        }
    }

    // ---- writing ----

    /** The dubbo:// URL of a provider, as a Dubbo 3.3 provider writes its own (see the class comment). */
    static String providerUrl(ProviderInfo p) {
        Map<String, String> params = new TreeMap<>();
        p.attribute(ProviderInfo.APPLICATION).ifPresent(a -> params.put("application", a));
        params.put("deprecated", "false");
        params.put("dubbo", DUBBO_PROTOCOL_VERSION);
        params.put("dynamic", "true");
        params.put("generic", "false");
        params.put("interface", p.service().interfaceName());
        params.put("methods", String.join(",", new TreeSet<>(p.methods())));
        p.attribute(ProviderInfo.PID).ifPresent(v -> params.put("pid", v));
        p.attribute(ProviderInfo.FRAMEWORK_VERSION).ifPresent(v -> params.put(ProviderInfo.FRAMEWORK_VERSION, v));
        params.put("side", "provider");
        params.put("timestamp", p.attribute(ProviderInfo.START_TIME).orElse(PROCESS_START));
        List<String> accepted = serializationNames(p);
        params.put("serialization", accepted.get(0));
        params.put("prefer.serialization", String.join(",", accepted));
        putIfNotEmpty(params, "version", p.service().version());
        putIfNotEmpty(params, "group", p.service().group());
        p.timeout().ifPresent(t -> params.put("timeout", Long.toString(t.toMillis())));
        params.put("weight", Integer.toString(p.weight()));
        params.put("warmup", p.attribute(ProviderInfo.WARMUP).orElse("0"));
        return url(SCHEME + "://" + p.address() + "/" + p.service().interfaceName(), params);
    }

    /** The consumer:// URL Dubbo consumers write under {@code consumers}, for a Kestrel reference. */
    static String consumerUrl(ConsumerInfo c) {
        Map<String, String> params = new TreeMap<>();
        c.attribute(ProviderInfo.APPLICATION).ifPresent(a -> params.put("application", a));
        params.put("category", "consumers");
        params.put("check", "false");
        params.put("dubbo", DUBBO_PROTOCOL_VERSION);
        params.put("interface", c.service().interfaceName());
        c.attribute(ProviderInfo.PID).ifPresent(v -> params.put("pid", v));
        c.attribute(ProviderInfo.FRAMEWORK_VERSION).ifPresent(v -> params.put(ProviderInfo.FRAMEWORK_VERSION, v));
        params.put("side", "consumer");
        params.put("timestamp", c.attribute(ProviderInfo.START_TIME).orElse(PROCESS_START));
        putIfNotEmpty(params, "version", c.service().version());
        putIfNotEmpty(params, "group", c.service().group());
        return url("consumer://" + c.host() + "/" + c.service().interfaceName(), params);
    }

    /** Dubbo's names of the serializations a provider accepts, its preferred one first. */
    private static List<String> serializationNames(ProviderInfo p) {
        Set<String> names = new LinkedHashSet<>();
        p.attribute(ProviderInfo.PREFERRED_SERIALIZATION).ifPresent(names::add);
        for (byte id : p.serializationIds()) {
            String name = SERIALIZATION_NAMES.get(id);
            if (name != null) {
                names.add(name);
            }
        }
        if (names.isEmpty()) {
            names.add(DEFAULT_SERIALIZATION);
        }
        return List.copyOf(names);
    }

    private static void putIfNotEmpty(Map<String, String> params, String key, String value) {
        if (value != null && !value.isEmpty()) {
            params.put(key, value);
        }
    }

    private static String url(String base, Map<String, String> params) {
        StringBuilder sb = new StringBuilder(base).append('?');
        params.forEach((k, v) -> sb.append(sb.charAt(sb.length() - 1) == '?' ? "" : "&").append(k).append('=')
                .append(rawValue(v)));
        return sb.toString();
    }

    /** Values go into the URL as they are (Dubbo reads them so); one that would split the record is encoded. */
    private static String rawValue(String v) {
        return v.indexOf('&') >= 0 || v.indexOf('=') >= 0 || v.indexOf('%') >= 0 ? ZooKeeperPaths.encode(v) : v;
    }

    // ---- reading ----

    /**
     * Reads one node name of a Dubbo providers folder as a provider of {@code wanted}. Skipped, with the reason:
     * another protocol (tri, rest, ...), another category, {@code enabled=false} or {@code disabled=true}, and
     * providers of another interface, version or group. A reference version or group of "*" matches any, and a
     * reference group may list several ("a,b"), as in Dubbo.
     *
     * @throws IllegalArgumentException if the name is not a URL at all (no scheme, no host:port)
     */
    static Parsed parseProvider(String nodeName, ServiceKey wanted) {
        String url = URLDecoder.decode(nodeName, StandardCharsets.UTF_8);
        int schemeEnd = url.indexOf("://");
        if (schemeEnd <= 0) {
            throw new IllegalArgumentException("'" + url + "' is not a URL (no scheme://)");
        }
        String scheme = url.substring(0, schemeEnd);
        String rest = url.substring(schemeEnd + 3);
        int q = rest.indexOf('?');
        String beforeQuery = q < 0 ? rest : rest.substring(0, q);
        int slash = beforeQuery.indexOf('/');
        String authority = slash < 0 ? beforeQuery : beforeQuery.substring(0, slash);
        String path = slash < 0 ? "" : beforeQuery.substring(slash + 1);
        Map<String, String> params = params(q < 0 ? "" : rest.substring(q + 1));
        if (!scheme.equals(SCHEME)) {
            return Parsed.skip("protocol " + scheme + " (only dubbo:// providers can be called)");
        }
        String category = params.getOrDefault("category", "providers");
        if (!category.equals("providers")) {
            return Parsed.skip("category " + category);
        }
        if ("false".equals(params.get("enabled")) || "true".equals(params.get("disabled"))) {
            return Parsed.skip("disabled");
        }
        String iface = params.getOrDefault("interface", path);
        if (!iface.equals(wanted.interfaceName())) {
            return Parsed.skip("a provider of " + iface);
        }
        String version = params.getOrDefault("version", "");
        String group = params.getOrDefault("group", "");
        if (!versionMatches(wanted.version(), version) || !groupMatches(wanted.group(), group)) {
            return Parsed.skip("version '" + version + "' group '" + group + "'");
        }
        int colon = authority.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("'" + url + "' has no host:port");
        }
        String host = authority.substring(0, colon);
        int port = number(url, "port", authority.substring(colon + 1));
        int weight = params.containsKey("weight") ? number(url, "weight", params.get("weight")) : 100;
        Duration timeout = null;
        if (params.containsKey("timeout")) {
            long ms = number(url, "timeout", params.get("timeout"), Long.MAX_VALUE);
            timeout = ms > 0 ? Duration.ofMillis(ms) : null;
        }
        List<String> methods = new ArrayList<>();
        for (String m : params.getOrDefault("methods", "").split(",")) {
            if (!m.isBlank()) {
                methods.add(m.trim());
            }
        }
        List<String> serializations = new ArrayList<>();
        for (String s : (params.getOrDefault("prefer.serialization", "") + ","
                + params.getOrDefault("serialization", "")).split(",")) {
            if (!s.isBlank() && SERIALIZATION_IDS.containsKey(s.trim()) && !serializations.contains(s.trim())) {
                serializations.add(s.trim());
            }
        }
        if (serializations.isEmpty()) {
            serializations.add(DEFAULT_SERIALIZATION);
        }
        Map<String, String> attributes = new LinkedHashMap<>();
        params.forEach((k, v) -> {
            if (KEPT.contains(k)) {
                attributes.put(k, v);
            }
        });
        attributes.put(ProviderInfo.PROTOCOL, SCHEME);
        attributes.put(ProviderInfo.PREFERRED_SERIALIZATION, serializations.get(0));
        if (params.containsKey("warmup") && params.containsKey("timestamp")) {
            long warmup = number(url, "warmup", params.get("warmup"), Long.MAX_VALUE);
            if (warmup > 0) {
                attributes.put(ProviderInfo.WARMUP, Long.toString(warmup));
                attributes.put(ProviderInfo.START_TIME, Long.toString(number(url, "timestamp", params.get("timestamp"), Long.MAX_VALUE)));
            }
        }
        List<Byte> ids = serializations.stream().map(SERIALIZATION_IDS::get).distinct().toList();
        try {
            return new Parsed(new ProviderInfo(host, port, new ServiceKey(iface, version, group), ids, weight, methods,
                    timeout).withAttributes(attributes), null);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + url + "': " + e.getMessage(), e);
        }
    }

    static boolean versionMatches(String wanted, String provided) {
        return wanted.equals("*") || wanted.equals(provided);
    }

    static boolean groupMatches(String wanted, String provided) {
        if (wanted.equals("*") || wanted.equals(provided)) {
            return true;
        }
        for (String g : wanted.split(",")) {
            if (g.trim().equals(provided) && !provided.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    private static Map<String, String> params(String query) {
        Map<String, String> params = new LinkedHashMap<>();
        for (String kv : query.split("&")) {
            int eq = kv.indexOf('=');
            if (eq > 0) {
                params.put(kv.substring(0, eq), kv.substring(eq + 1));
            }
        }
        return params;
    }

    private static int number(String url, String what, String text) {
        return (int) number(url, what, text, Integer.MAX_VALUE);
    }

    private static long number(String url, String what, String text, long max) {
        try {
            long v = Long.parseLong(text.trim());
            if (v < 0 || v > max) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + url + "' has " + what + " '" + text
                    + "', not a number in 0.." + max);
        }
    }
}
