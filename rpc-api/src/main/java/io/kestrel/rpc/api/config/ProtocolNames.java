package io.kestrel.rpc.api.config;

import java.util.Locale;
import java.util.StringJoiner;

/**
 * The protocol rules the config builders share: which protocol names exist, how a reference's direct
 * {@code url} names one, and what the dubbo protocol allows on a port.
 */
final class ProtocolNames {
    private ProtocolNames() {
    }

    /**
     * {@code name} trimmed and lower-cased when it is one of {@link ProtocolConfig#NAMES}.
     *
     * @throws IllegalArgumentException naming {@code what} and the two protocols, with what each is for
     */
    static String checked(String what, String name, String kestrelUse, String dubboUse) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        if (!ProtocolConfig.NAMES.contains(n)) {
            throw new IllegalArgumentException(what + " \"" + name + "\" is not one this framework speaks; use "
                    + ProtocolConfig.KESTREL + " (" + kestrelUse + ") or " + ProtocolConfig.DUBBO + " (" + dubboUse + ")");
        }
        return n;
    }

    /** A reference's direct provider addresses, and the protocol their {@code scheme://} names (null: none does). */
    record DirectUrl(String addresses, String protocol) {
        /**
         * Parses {@code host:port[,host:port...]}, each may be written {@code dubbo://host:port} or
         * {@code kestrel://host:port}; null when {@code url} is null or blank.
         *
         * @throws IllegalArgumentException for an unknown scheme, or addresses that mix protocols
         */
        static DirectUrl parse(String url) {
            if (url == null || url.isBlank()) {
                return null;
            }
            String protocol = null;
            StringJoiner addresses = new StringJoiner(",");
            for (String part : url.trim().split(",")) {
                String address = part.trim();
                int scheme = address.indexOf("://");
                if (scheme >= 0) {
                    String name = address.substring(0, scheme).toLowerCase(Locale.ROOT);
                    if (!ProtocolConfig.NAMES.contains(name)) {
                        throw new IllegalArgumentException("reference url '" + url + "': unknown protocol '" + name
                                + "://'; write host:port, " + ProtocolConfig.DUBBO + "://host:port or "
                                + ProtocolConfig.KESTREL + "://host:port");
                    }
                    if (protocol != null && !protocol.equals(name)) {
                        throw new IllegalArgumentException("reference url '" + url + "' mixes protocols " + protocol
                                + " and " + name + "; one reference speaks one protocol");
                    }
                    protocol = name;
                    if (name.equals(ProtocolConfig.DUBBO)) {
                        address = address.substring(scheme + 3); // a path (the interface, as Dubbo writes it) stays
                    }
                }
                addresses.add(address);
            }
            return new DirectUrl(addresses.toString(), protocol);
        }
    }

    /**
     * The serialization of a dubbo-protocol port: Dubbo's default hessian2 when none was set, else the one set if
     * the dubbo protocol carries it here.
     *
     * @param secured whether TLS or an authenticator was set (the dubbo protocol has neither)
     * @throws IllegalArgumentException saying what to remove or choose instead
     */
    static String dubboSerialization(boolean secured, boolean serializationSet, String serialization) {
        if (secured) {
            throw new IllegalArgumentException("protocol dubbo: TLS and authenticators are not available on"
                    + " the dubbo protocol; remove the tls-* and authenticator settings, or use the native"
                    + " protocol (name=\"kestrel\") for callers that need them");
        }
        if (!serializationSet) {
            return "hessian2"; // Dubbo's default and what every stock Dubbo consumer can send
        }
        if (!ProtocolConfig.DUBBO_SERIALIZATIONS.contains(serialization)) {
            throw new IllegalArgumentException("protocol serialization \"" + serialization + "\" cannot be"
                    + " spoken on the dubbo protocol here; use one of " + ProtocolConfig.DUBBO_SERIALIZATIONS
                    + " (hessian2 is Dubbo's default; set serialization=\"hessian2\" on Dubbo applications"
                    + " that chose another)");
        }
        return serialization;
    }
}
