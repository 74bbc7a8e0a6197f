package io.kestrel.rpc.api.registry;

import io.kestrel.rpc.api.ServiceKey;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * One consumer of one service, as recorded in the registry (Dubbo's {@code consumers/} records), so that
 * "who calls this service" has an answer. Immutable.
 *
 * <p>Its storage form ({@link #toUrl()}) is URL-shaped:
 * {@code consumer://10.0.0.7/com.example.UserService?version=1.0&group=&application=shop&kestrel-version=0.1.0&pid=4711&start-time=1795000000000}.
 * The attributes use the names of {@link ProviderInfo}'s ({@link ProviderInfo#APPLICATION},
 * {@link ProviderInfo#PID}, {@link ProviderInfo#START_TIME}, {@link ProviderInfo#FRAMEWORK_VERSION}); unknown
 * ones are kept, so older readers accept newer records.
 */
public final class ConsumerInfo {
    private static final String SCHEME = "consumer://";
    private static final Set<String> RESERVED = Set.of("version", "group");

    private final String host;
    private final ServiceKey service;
    private final Map<String, String> attributes;

    /**
     * @param host the consumer's address as other hosts see it
     * @param attributes application, pid, start time, framework version...; null values are left out
     * @throws IllegalArgumentException if the host is empty or an attribute name is empty or reserved
     */
    public ConsumerInfo(String host, ServiceKey service, Map<String, String> attributes) {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("consumer host must not be empty");
        }
        this.host = host;
        this.service = Objects.requireNonNull(service, "service");
        TreeMap<String, String> sorted = new TreeMap<>();
        attributes.forEach((k, v) -> {
            if (k == null || k.isBlank() || RESERVED.contains(k)) {
                throw new IllegalArgumentException("consumer attribute name '" + k + "' is empty or reserved");
            }
            if (v != null) {
                sorted.put(k, v);
            }
        });
        this.attributes = Collections.unmodifiableMap(sorted);
    }

    public String host() {
        return host;
    }

    public ServiceKey service() {
        return service;
    }

    /** Application, pid, start time, framework version and whatever newer versions add. Sorted, unmodifiable. */
    public Map<String, String> attributes() {
        return attributes;
    }

    /** One attribute; empty when the consumer did not record it. */
    public Optional<String> attribute(String name) {
        return Optional.ofNullable(attributes.get(name));
    }

    /** The storage form; see the class comment. */
    public String toUrl() {
        StringBuilder sb = new StringBuilder(SCHEME).append(host).append('/').append(enc(service.interfaceName()))
                .append("?version=").append(enc(service.version())).append("&group=").append(enc(service.group()));
        attributes.forEach((k, v) -> sb.append('&').append(enc(k)).append('=').append(enc(v)));
        return sb.toString();
    }

    /**
     * Parses {@link #toUrl()}'s form.
     *
     * @throws IllegalArgumentException naming the text and what is wrong with it
     */
    public static ConsumerInfo fromUrl(String url) {
        try {
            RecordUrl parsed = RecordUrl.parse(url, SCHEME);
            String host = parsed.authority();
            String iface = parsed.interfaceName();
            Map<String, String> params = parsed.params();
            Map<String, String> attributes = new LinkedHashMap<>(params);
            attributes.keySet().removeAll(RESERVED);
            return new ConsumerInfo(host, new ServiceKey(iface, params.get("version"), params.get("group")),
                    attributes);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Malformed consumer record '" + url + "': " + e.getMessage(), e);
        }
    }

    private static String enc(String s) {
        return RecordUrl.encode(s);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ConsumerInfo c && c.toUrl().equals(toUrl());
    }

    @Override
    public int hashCode() {
        return toUrl().hashCode();
    }

    @Override
    public String toString() {
        return host + "/" + service + attributes;
    }
}
