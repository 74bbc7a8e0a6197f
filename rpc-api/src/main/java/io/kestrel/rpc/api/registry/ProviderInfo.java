package io.kestrel.rpc.api.registry;

import io.kestrel.rpc.api.ServiceKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * One provider of one service, as published in the registry. Immutable.
 *
 * <p>Its storage form ({@link #toUrl()}) is URL-shaped:
 * {@code kestrel://10.0.0.5:20880/com.example.UserService?version=1.0&group=a&serialization=8,2&weight=100&methods=get,list&timeout=500}.
 * That string is a registry storage format, not a configuration API. {@code timeout} (milliseconds) is
 * present only when the service sets one; records written before it existed, and records without it,
 * read as "no published timeout". Every other parameter is an {@linkplain #attributes() attribute}: kept,
 * written back, and ignored by readers that do not know it, so older readers accept newer records.
 */
public final class ProviderInfo {
    private final String host;
    private final int port;
    private final ServiceKey service;
    private final List<Byte> serializationIds;
    private final int weight;
    private final List<String> methods;
    private final Duration timeout;
    private final Map<String, String> attributes;

    /** Attribute: the provider's application name ({@code <rpc:application name>}). */
    public static final String APPLICATION = "application";
    /** Attribute: the provider process's id. */
    public static final String PID = "pid";
    /** Attribute: when the provider process started, epoch milliseconds. */
    public static final String START_TIME = "start-time";
    /**
     * Attribute: the service's warm-up in milliseconds ({@code ServiceConfig.warmup()}); consumers ramp the
     * provider's weight up over this long after {@link #START_TIME}.
     */
    public static final String WARMUP = "warmup";
    /** Attribute: the Kestrel RPC version the provider runs. */
    public static final String FRAMEWORK_VERSION = "kestrel-version";
    /**
     * Attribute: the serialization (name) the provider prefers for this service: the protocol's when the
     * service accepts it, else the first the service lists. A reference that sets no serialization adopts it.
     */
    public static final String PREFERRED_SERIALIZATION = "preferred-serialization";
    /** Attribute: the class name of the provider's serialization optimizer; absent when it has none. */
    public static final String OPTIMIZER = "optimizer";
    /**
     * Attribute: the classes the provider's optimizer registers, comma-separated, in registration order; a class
     * in the same package as the one before it is written ".SimpleName" (e.g. {@code com.x.Order,.Customer}).
     */
    public static final String OPTIMIZER_CLASSES = "optimizer-classes";
    /**
     * Attribute: a stable hash of {@link #OPTIMIZER_CLASSES} (16 hex digits of SHA-256 over the class names,
     * in order, each followed by a newline). It applies to every accepted serialization that writes
     * registered classes as numbers (kryo, fst, fory), where both sides must register the same classes in
     * the same order.
     */
    public static final String OPTIMIZER_FINGERPRINT = "optimizer-fingerprint";
    /**
     * Attribute: "true" when the provider's serializations run in compatible mode ({@code compatible} on its
     * protocol); references adopt it. Absent when off.
     */
    public static final String COMPATIBLE = "compatible";

    /**
     * Attribute: "true" when the provider's port speaks only TLS. A consumer without TLS refuses to
     * refer a service whose every provider requires it (and a TLS consumer one whose every provider
     * is plaintext), saying so, instead of connecting in vain.
     */
    public static final String TLS = "tls";

    /**
     * Attribute: the wire protocol the provider's port speaks when it is not the native one ("dubbo"; absent for
     * {@value #NATIVE_PROTOCOL}). A registry publishes such providers where that protocol's consumers look
     * (Dubbo's ZooKeeper layout for "dubbo"); consumers on another protocol leave the provider out, saying so.
     */
    public static final String PROTOCOL = "protocol";
    /** The name of the native protocol, what {@link #protocol()} says when the record names none. */
    public static final String NATIVE_PROTOCOL = "kestrel";

    /** The protocol the provider's port speaks (attribute {@link #PROTOCOL}); {@value #NATIVE_PROTOCOL} when absent. */
    public String protocol() {
        return attributes.getOrDefault(PROTOCOL, NATIVE_PROTOCOL);
    }

    /** Whether the record says the provider's port requires TLS (attribute {@link #TLS}). */
    public boolean requiresTls() {
        return "true".equals(attributes.get(TLS));
    }

    /** A provider that publishes no timeout. */
    public ProviderInfo(String host, int port, ServiceKey service, List<Byte> serializationIds, int weight,
            List<String> methods) {
        this(host, port, service, serializationIds, weight, methods, null);
    }

    /**
     * @param timeout the service's timeout, the default deadline of consumers that set none; null for none.
     *     Whole milliseconds are kept
     */
    public ProviderInfo(String host, int port, ServiceKey service, List<Byte> serializationIds, int weight,
            List<String> methods, Duration timeout) {
        this(host, port, service, serializationIds, weight, methods, timeout, Map.of());
    }

    private ProviderInfo(String host, int port, ServiceKey service, List<Byte> serializationIds, int weight,
            List<String> methods, Duration timeout, Map<String, String> attributes) {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("provider host must not be empty");
        }
        if (port <= 0 || port > 65535) {
            throw new IllegalArgumentException("provider port must be 1..65535, was " + port);
        }
        if (weight < 0) {
            throw new IllegalArgumentException("provider weight must be >= 0, was " + weight);
        }
        this.host = host;
        this.port = port;
        this.service = Objects.requireNonNull(service, "service");
        this.serializationIds = List.copyOf(serializationIds);
        this.weight = weight;
        this.methods = List.copyOf(methods);
        if (timeout != null && timeout.toMillis() <= 0) {
            throw new IllegalArgumentException("provider timeout must be at least 1 ms, was " + timeout);
        }
        this.timeout = timeout == null ? null : Duration.ofMillis(timeout.toMillis());
        TreeMap<String, String> sorted = new TreeMap<>();
        attributes.forEach((k, v) -> {
            if (k == null || k.isBlank() || RESERVED.contains(k)) {
                throw new IllegalArgumentException("provider attribute name '" + k + "' is empty or reserved");
            }
            if (v != null) {
                sorted.put(k, v);
            }
        });
        this.attributes = Collections.unmodifiableMap(sorted);
    }

    private static final Set<String> RESERVED = Set.of("version", "group", "serialization", "weight", "methods",
            "timeout");

    /**
     * This record with {@code extra} added to its attributes (a null value removes the attribute).
     *
     * @throws IllegalArgumentException if a name is empty or one of the record's own parameters
     */
    public ProviderInfo withAttributes(Map<String, String> extra) {
        Map<String, String> merged = new TreeMap<>(attributes);
        extra.forEach((k, v) -> {
            if (v == null) {
                merged.remove(k);
            } else {
                merged.put(k, v);
            }
        });
        return new ProviderInfo(host, port, service, serializationIds, weight, methods, timeout, merged);
    }

    /**
     * Everything else the provider published: application, pid, start time, framework version (see the
     * constants) and whatever newer versions add. Sorted by name, unmodifiable.
     */
    public Map<String, String> attributes() {
        return attributes;
    }

    /** One attribute; empty when the provider did not publish it. */
    public Optional<String> attribute(String name) {
        return Optional.ofNullable(attributes.get(name));
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    /** "host:port". */
    public String address() {
        return host + ":" + port;
    }

    public ServiceKey service() {
        return service;
    }

    /** Serialization ids the provider accepts for this service. */
    public List<Byte> serializationIds() {
        return serializationIds;
    }

    /** Relative weight for weighted load balancing; 0 takes no traffic. Default 100. */
    public int weight() {
        return weight;
    }

    /** Names of the service's methods. */
    public List<String> methods() {
        return methods;
    }

    /**
     * The service's timeout ({@code timeout} on {@code <rpc:service>}): consumers whose reference sets no
     * timeout use it as the deadline of calls to this provider. Empty when the service sets none.
     */
    public Optional<Duration> timeout() {
        return Optional.ofNullable(timeout);
    }

    /** The storage form; see the class comment. */
    public String toUrl() {
        StringBuilder sb = new StringBuilder("kestrel://").append(host).append(':').append(port).append('/')
                .append(enc(service.interfaceName())).append('?');
        sb.append("version=").append(enc(service.version()));
        sb.append("&group=").append(enc(service.group()));
        sb.append("&serialization=");
        for (int i = 0; i < serializationIds.size(); i++) {
            sb.append(i == 0 ? "" : ",").append(serializationIds.get(i));
        }
        sb.append("&weight=").append(weight);
        sb.append("&methods=").append(enc(String.join(",", methods)));
        if (timeout != null) {
            sb.append("&timeout=").append(timeout.toMillis());
        }
        attributes.forEach((k, v) -> sb.append('&').append(enc(k)).append('=').append(enc(v)));
        return sb.toString();
    }

    /**
     * Parses {@link #toUrl()}'s form.
     *
     * @throws IllegalArgumentException naming the text and what is wrong with it
     */
    public static ProviderInfo fromUrl(String url) {
        try {
            RecordUrl parsed = RecordUrl.parse(url, "kestrel://");
            String hostPort = parsed.authority();
            int colon = hostPort.lastIndexOf(':');
            String host = hostPort.substring(0, colon);
            int port = Integer.parseInt(hostPort.substring(colon + 1));
            String iface = parsed.interfaceName();
            Map<String, String> params = parsed.params();
            List<Byte> ids = new ArrayList<>();
            for (String s : params.getOrDefault("serialization", "").split(",")) {
                if (!s.isBlank()) {
                    ids.add(Byte.parseByte(s.trim()));
                }
            }
            List<String> methods = new ArrayList<>();
            for (String m : params.getOrDefault("methods", "").split(",")) {
                if (!m.isBlank()) {
                    methods.add(m);
                }
            }
            int weight = Integer.parseInt(params.getOrDefault("weight", "100"));
            String timeout = params.get("timeout");
            Map<String, String> attributes = new LinkedHashMap<>(params);
            attributes.keySet().removeAll(RESERVED);
            return new ProviderInfo(host, port, new ServiceKey(iface, params.get("version"), params.get("group")),
                    ids, weight, methods, timeout == null ? null : Duration.ofMillis(Long.parseLong(timeout)),
                    attributes);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Malformed provider record '" + url + "': " + e.getMessage(), e);
        }
    }

    private static String enc(String s) {
        return RecordUrl.encode(s);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ProviderInfo p && p.toUrl().equals(toUrl());
    }

    @Override
    public int hashCode() {
        return toUrl().hashCode();
    }

    @Override
    public String toString() {
        return address() + "/" + service + (weight != 100 ? " weight=" + weight : "")
                + (timeout != null ? " timeout=" + timeout.toMillis() + "ms" : "");
    }
}
