package io.kestrel.rpc.spring.internal;

import io.kestrel.rpc.api.config.TlsConfig;
import java.nio.file.Path;
import java.util.List;

/** Builds the {@link TlsConfig} of {@code <rpc:protocol>} and {@code <rpc:reference>} from their {@code tls-*} attributes. */
final class TlsBinding {
    /** TLS attributes of {@code <rpc:protocol>} and {@code <rpc:reference>}; any of them set turns TLS on. */
    static final List<String> TLS_ATTRIBUTES = List.of("tls-cert", "tls-key", "tls-trust", "tls-client-auth",
            "tls-protocols", "tls-ciphers", "tls-handshake-timeout", "tls-reload", "tls-verify-hostname", "tls-engine");

    private TlsBinding() {
    }

    /**
     * The {@code tls-*} attributes as a {@link TlsConfig}, or null when none is set (plaintext). Each
     * attribute comes from {@code src}, else from {@code defaults} (may be null). File paths are only
     * parsed here; the files are read and checked when the protocol starts or the reference is created.
     */
    static TlsConfig tls(ConfigSource src, ConfigSource defaults, boolean provider) {
        java.util.function.Function<String, ConfigSource> from = name -> src.has(name) || defaults == null
                || !defaults.has(name) ? src : defaults;
        if (TLS_ATTRIBUTES.stream().noneMatch(n -> from.apply(n).has(n))) {
            return null;
        }
        if (!provider && src.has("tls-client-auth")) {
            throw src.error("tls-client-auth", src.get("tls-client-auth"), "is a provider setting; set it on"
                    + " <rpc:protocol>", null);
        }
        TlsConfig.Builder b = TlsConfig.builder();
        from.apply("tls-cert").ifSet("tls-cert", v -> b.certificateChain(Path.of(v)));
        from.apply("tls-key").ifSet("tls-key", v -> b.privateKey(Path.of(v)));
        from.apply("tls-trust").ifSet("tls-trust", v -> b.trustRoots(Path.of(v)));
        from.apply("tls-client-auth").ifSet("tls-client-auth", v -> b.clientAuth(choice(v,
                TlsConfig.ClientAuth.class)));
        from.apply("tls-protocols").ifSet("tls-protocols", v -> b.protocols(ConfigBinder.split(v)));
        from.apply("tls-ciphers").ifSet("tls-ciphers", v -> b.ciphers(ConfigBinder.split(v)));
        from.apply("tls-handshake-timeout").ifSet("tls-handshake-timeout",
                v -> b.handshakeTimeout(ConfigSource.duration(v)));
        from.apply("tls-reload").ifSet("tls-reload", v -> b.reloadInterval(ConfigSource.durationOrOff(v)));
        from.apply("tls-verify-hostname").ifSet("tls-verify-hostname", v -> b.verifyHostname(ConfigSource.bool(v)));
        from.apply("tls-engine").ifSet("tls-engine", v -> b.engine(choice(v, TlsConfig.Engine.class)));
        ConfigSource keySource = from.apply("tls-cert");
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw keySource.error("tls-cert", keySource.get("tls-cert"), e.getMessage(), e);
        }
    }

    /** An enum constant by its name, case-insensitively; the message lists the choices. */
    private static <E extends Enum<E>> E choice(String value, Class<E> type) {
        for (E e : type.getEnumConstants()) {
            if (e.name().equalsIgnoreCase(value.trim())) {
                return e;
            }
        }
        throw new IllegalArgumentException("must be one of " + java.util.Arrays.stream(type.getEnumConstants())
                .map(e -> e.name().toLowerCase(java.util.Locale.ROOT)).toList());
    }
}
