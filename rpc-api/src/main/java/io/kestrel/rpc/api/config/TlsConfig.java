package io.kestrel.rpc.api.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * TLS for the native protocol, on either side: PEM files for this side's certificate chain and
 * private key, the trust roots that verify the peer, and how the handshake is run. Immutable; build
 * with {@link #builder()}. The files are read and checked when the protocol starts or the first
 * reference is created (missing, unreadable, not PEM, key not matching the certificate, expired or
 * not yet valid certificate: each an error naming the file and the setting), and read again every
 * {@link #reloadInterval()}: new connections then use the renewed material, open ones keep theirs.
 *
 * <p>XML: {@code tls-cert}, {@code tls-key}, {@code tls-trust}, {@code tls-client-auth},
 * {@code tls-protocols}, {@code tls-ciphers}, {@code tls-handshake-timeout}, {@code tls-reload},
 * {@code tls-verify-hostname}, {@code tls-engine} on {@code <rpc:protocol>} (provider) and
 * {@code <rpc:reference>} (consumer).
 */
public final class TlsConfig {
    /** Whether a provider asks consumers for a certificate ({@code tls-client-auth}). */
    public enum ClientAuth {
        /** No client certificate is asked for (the default). */
        NONE,
        /** A client certificate is asked for and verified if sent; callers without one are anonymous. */
        OPTIONAL,
        /** Mutual TLS: a consumer without a certificate from the trust roots cannot connect. */
        REQUIRE
    }

    /** The TLS implementation ({@code tls-engine}). */
    public enum Engine {
        /** The JDK's own (default): no native code. */
        JDK,
        /** OpenSSL through netty-tcnative; fails at startup when netty-tcnative is not on the class path. */
        OPENSSL,
        /** OpenSSL when netty-tcnative is on the class path, else the JDK's. */
        AUTO
    }

    /** The protocol versions used by default: TLS 1.3 and 1.2 (older ones are refused). */
    public static final List<String> DEFAULT_PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

    private final Path certificateChain;
    private final Path privateKey;
    private final Path trustRoots;
    private final ClientAuth clientAuth;
    private final List<String> protocols;
    private final List<String> ciphers;
    private final Duration handshakeTimeout;
    private final Duration reloadInterval;
    private final boolean verifyHostname;
    private final Engine engine;

    private TlsConfig(Builder b) {
        this.certificateChain = b.certificateChain;
        this.privateKey = b.privateKey;
        this.trustRoots = b.trustRoots;
        this.clientAuth = b.clientAuth;
        this.protocols = List.copyOf(b.protocols);
        this.ciphers = List.copyOf(b.ciphers);
        this.handshakeTimeout = b.handshakeTimeout;
        this.reloadInterval = b.reloadInterval;
        this.verifyHostname = b.verifyHostname;
        this.engine = b.engine;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * PEM file with this side's certificate, followed by its intermediates ({@code tls-cert}).
     * Required on a provider; on a consumer only for mutual TLS. Null when not set.
     */
    public Path certificateChain() {
        return certificateChain;
    }

    /** PEM file with the unencrypted PKCS#8 private key of {@link #certificateChain()} ({@code tls-key}). */
    public Path privateKey() {
        return privateKey;
    }

    /**
     * PEM file with the CA certificates that verify the peer ({@code tls-trust}). On a consumer,
     * null means the JDK's default trust store (and then no token is sent: see
     * {@link ClientConfig#token()}); on a provider it is required unless {@link #clientAuth()} is NONE.
     */
    public Path trustRoots() {
        return trustRoots;
    }

    /** Provider only: whether consumers must present a certificate ({@code tls-client-auth}). Default NONE. */
    public ClientAuth clientAuth() {
        return clientAuth;
    }

    /** Protocol versions ({@code tls-protocols}). Default {@link #DEFAULT_PROTOCOLS}. */
    public List<String> protocols() {
        return protocols;
    }

    /**
     * Cipher suites ({@code tls-ciphers}); empty (the default) means the engine's defaults for
     * TLS 1.3 and 1.2, which offer only forward-secret AEAD suites (AES-GCM, ChaCha20-Poly1305).
     */
    public List<String> ciphers() {
        return ciphers;
    }

    /**
     * The whole handshake must complete within this ({@code tls-handshake-timeout}), counted from
     * the moment the connection is accepted; a peer that stalls is disconnected. Default 10 s.
     */
    public Duration handshakeTimeout() {
        return handshakeTimeout;
    }

    /**
     * How often the PEM files are checked for changes ({@code tls-reload}); changed files are read,
     * checked, and used for connections opened afterwards (open ones keep working). A change that
     * fails the checks is logged and the material in use is kept. Default 60 s; zero disables.
     */
    public Duration reloadInterval() {
        return reloadInterval;
    }

    /**
     * Consumer only: the provider's certificate must name the host it is reached at, as a DNS or IP
     * subject alternative name ({@code tls-verify-hostname}). Default true.
     */
    public boolean verifyHostname() {
        return verifyHostname;
    }

    /** The TLS implementation ({@code tls-engine}). Default JDK. */
    public Engine engine() {
        return engine;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TlsConfig t && Objects.equals(certificateChain, t.certificateChain)
                && Objects.equals(privateKey, t.privateKey) && Objects.equals(trustRoots, t.trustRoots)
                && clientAuth == t.clientAuth && protocols.equals(t.protocols) && ciphers.equals(t.ciphers)
                && handshakeTimeout.equals(t.handshakeTimeout) && reloadInterval.equals(t.reloadInterval)
                && verifyHostname == t.verifyHostname && engine == t.engine;
    }

    @Override
    public int hashCode() {
        return Objects.hash(certificateChain, privateKey, trustRoots, clientAuth, protocols, ciphers,
                handshakeTimeout, reloadInterval, verifyHostname, engine);
    }

    @Override
    public String toString() {
        return "TLS{" + (certificateChain != null ? "cert=" + certificateChain + ", key=" + privateKey + ", " : "")
                + "trust=" + (trustRoots != null ? trustRoots : "JDK default") + ", client-auth="
                + clientAuth.name().toLowerCase(Locale.ROOT) + ", protocols=" + protocols
                + (ciphers.isEmpty() ? "" : ", ciphers=" + ciphers) + ", engine=" + engine.name().toLowerCase(Locale.ROOT)
                + (verifyHostname ? "" : ", no hostname check") + "}";
    }

    public static final class Builder {
        private Path certificateChain;
        private Path privateKey;
        private Path trustRoots;
        private ClientAuth clientAuth = ClientAuth.NONE;
        private final List<String> protocols = new ArrayList<>(DEFAULT_PROTOCOLS);
        private final List<String> ciphers = new ArrayList<>();
        private Duration handshakeTimeout = Duration.ofSeconds(10);
        private Duration reloadInterval = Duration.ofSeconds(60);
        private boolean verifyHostname = true;
        private Engine engine = Engine.JDK;

        private Builder() {
        }

        /** This side's certificate chain and its private key, both PEM files. */
        public Builder keyPair(Path certificateChain, Path privateKey) {
            this.certificateChain = Objects.requireNonNull(certificateChain, "tls-cert");
            this.privateKey = Objects.requireNonNull(privateKey, "tls-key");
            return this;
        }

        public Builder certificateChain(Path file) {
            this.certificateChain = file;
            return this;
        }

        public Builder privateKey(Path file) {
            this.privateKey = file;
            return this;
        }

        public Builder trustRoots(Path file) {
            this.trustRoots = file;
            return this;
        }

        public Builder clientAuth(ClientAuth clientAuth) {
            this.clientAuth = Objects.requireNonNull(clientAuth, "tls-client-auth");
            return this;
        }

        /** Replaces the protocol versions; each must be TLSv1.2 or TLSv1.3. */
        public Builder protocols(List<String> versions) {
            if (versions.isEmpty()) {
                throw new IllegalArgumentException("tls-protocols must name at least one of " + DEFAULT_PROTOCOLS);
            }
            for (String v : versions) {
                if (!DEFAULT_PROTOCOLS.contains(v)) {
                    throw new IllegalArgumentException("tls-protocols: '" + v + "' is not supported; use "
                            + DEFAULT_PROTOCOLS + " (older versions are insecure)");
                }
            }
            this.protocols.clear();
            this.protocols.addAll(versions);
            return this;
        }

        /** Replaces the cipher suites (JDK names, e.g. TLS_AES_128_GCM_SHA256); empty: the defaults. */
        public Builder ciphers(List<String> suites) {
            this.ciphers.clear();
            suites.forEach(s -> this.ciphers.add(Checks.nonBlank("tls-ciphers entry", s)));
            return this;
        }

        public Builder handshakeTimeout(Duration timeout) {
            this.handshakeTimeout = Checks.positiveMillis("tls-handshake-timeout", timeout);
            return this;
        }

        /** See {@link TlsConfig#reloadInterval()}; {@link Duration#ZERO} disables reloading. */
        public Builder reloadInterval(Duration interval) {
            Objects.requireNonNull(interval, "tls-reload");
            if (interval.isNegative()) {
                throw new IllegalArgumentException("tls-reload must be >= 0 (0: never), was " + interval);
            }
            this.reloadInterval = interval;
            return this;
        }

        public Builder verifyHostname(boolean verify) {
            this.verifyHostname = verify;
            return this;
        }

        public Builder engine(Engine engine) {
            this.engine = Objects.requireNonNull(engine, "tls-engine");
            return this;
        }

        public TlsConfig build() {
            if ((certificateChain == null) != (privateKey == null)) {
                throw new IllegalArgumentException("tls-cert and tls-key go together: "
                        + (certificateChain == null ? "tls-key is set but tls-cert is not"
                        : "tls-cert is set but tls-key is not"));
            }
            return new TlsConfig(this);
        }
    }
}
