package io.kestrel.rpc.api;

import java.util.Objects;

/**
 * Identifies an exported service: interface name plus optional version and group. Two services with
 * the same interface but different version or group are different services.
 */
public final class ServiceKey {
    private final String interfaceName;
    private final String version;
    private final String group;
    private final String text;

    public ServiceKey(String interfaceName, String version, String group) {
        if (interfaceName == null || interfaceName.isBlank()) {
            throw new IllegalArgumentException("service interface name must not be empty");
        }
        this.interfaceName = interfaceName;
        this.version = version == null ? "" : version;
        this.group = group == null ? "" : group;
        StringBuilder sb = new StringBuilder();
        if (!this.group.isEmpty()) {
            sb.append(this.group).append('/');
        }
        sb.append(interfaceName);
        if (!this.version.isEmpty()) {
            sb.append(':').append(this.version);
        }
        this.text = sb.toString();
    }

    public static ServiceKey of(Class<?> type) {
        return new ServiceKey(type.getName(), "", "");
    }

    public String interfaceName() {
        return interfaceName;
    }

    /** The version, "" when none. */
    public String version() {
        return version;
    }

    /** The group, "" when none. */
    public String group() {
        return group;
    }

    /** "group/interface:version", with absent parts left out; parsed back by {@link #parse}. */
    @Override
    public String toString() {
        return text;
    }

    /** Parses {@link #toString()}'s form. */
    public static ServiceKey parse(String text) {
        String group = "";
        String rest = text;
        int slash = rest.indexOf('/');
        if (slash >= 0) {
            group = rest.substring(0, slash);
            rest = rest.substring(slash + 1);
        }
        String version = "";
        int colon = rest.indexOf(':');
        if (colon >= 0) {
            version = rest.substring(colon + 1);
            rest = rest.substring(0, colon);
        }
        return new ServiceKey(rest, version, group);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ServiceKey k && k.text.equals(text);
    }

    @Override
    public int hashCode() {
        return Objects.hash(text);
    }
}
