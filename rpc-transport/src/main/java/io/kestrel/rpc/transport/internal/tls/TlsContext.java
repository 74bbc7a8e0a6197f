package io.kestrel.rpc.transport.internal.tls;

import io.kestrel.rpc.api.config.TlsConfig;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One side's TLS material, from the PEM files of a {@link TlsConfig}: read and checked when created
 * (an error names the file, the setting and what is wrong), then checked again for changes at most
 * once per {@link TlsConfig#reloadInterval()}, when a connection asks for a handler. Changed files
 * that pass the checks replace the material for the connections opened from then on; open
 * connections keep the engine they were created with. Changed files that fail the checks (a
 * rotation half done: a new certificate beside the old key) are logged and the material in use is
 * kept, until the files change again. Thread-safe.
 */
public final class TlsContext {
    private static final Logger log = LoggerFactory.getLogger(TlsContext.class);

    private final TlsConfig config;
    private final boolean server;
    private final long reloadNanos;
    private volatile SslContext context;
    private volatile String description;
    /** Digest of the files' bytes the current (or the last refused) material was read from. */
    private byte[] digest;
    private volatile long nextCheckNanos;

    private TlsContext(TlsConfig config, boolean server) {
        this.config = config;
        this.server = server;
        this.reloadNanos = config.reloadInterval().toNanos();
        Loaded loaded = load(); // throws IllegalArgumentException naming the file
        this.context = loaded.context;
        this.description = loaded.description;
        this.digest = loaded.digest;
        this.nextCheckNanos = System.nanoTime() + reloadNanos;
    }

    /**
     * A provider's material: certificate chain and key required, trust roots required unless
     * client-auth is none.
     *
     * @throws IllegalArgumentException naming the file or setting that is missing or wrong
     */
    public static TlsContext forServer(TlsConfig config) {
        if (config.certificateChain() == null) {
            throw new IllegalArgumentException("protocol TLS needs the provider's certificate chain and private key:"
                    + " set tls-cert and tls-key (PEM files)");
        }
        if (config.clientAuth() != TlsConfig.ClientAuth.NONE && config.trustRoots() == null) {
            throw new IllegalArgumentException("protocol tls-client-auth=" + config.clientAuth().name().toLowerCase()
                    + " needs tls-trust: the PEM file of the CA certificates that sign consumers' certificates");
        }
        return new TlsContext(config, true);
    }

    /** A consumer's material; the key pair is optional (needed for mutual TLS). */
    public static TlsContext forClient(TlsConfig config) {
        return new TlsContext(config, false);
    }

    public TlsConfig config() {
        return config;
    }

    /** A provider's handler for an accepted connection, with the handshake timeout applied. */
    public SslHandler newServerHandler(ByteBufAllocator alloc) {
        SslHandler h = current().newHandler(alloc);
        h.setHandshakeTimeoutMillis(config.handshakeTimeout().toMillis());
        return h;
    }

    /** A consumer's handler for a connection to {@code host:port} (SNI, and the host the certificate must name). */
    public SslHandler newClientHandler(ByteBufAllocator alloc, String host, int port) {
        SslHandler h = current().newHandler(alloc, host, port);
        h.setHandshakeTimeoutMillis(config.handshakeTimeout().toMillis());
        return h;
    }

    /** What is in use: the certificate's subject and expiry, or "no certificate". */
    public String description() {
        return description;
    }

    /** The context for a new connection: reloaded first if the interval has passed and the files changed. */
    SslContext current() {
        if (reloadNanos > 0 && System.nanoTime() - nextCheckNanos >= 0) {
            reloadIfChanged();
        }
        return context;
    }

    /** Checks the files now (also what the periodic check does); true if new material was taken. */
    public synchronized boolean reloadIfChanged() {
        nextCheckNanos = System.nanoTime() + reloadNanos;
        byte[] now;
        try {
            now = digestOfFiles();
        } catch (IllegalArgumentException e) {
            log.warn("TLS files changed and cannot be read; keeping the material in use ({}): {}", description,
                    e.getMessage());
            return false;
        }
        if (Arrays.equals(now, digest)) {
            return false;
        }
        digest = now; // a refused change is not retried until the files change again
        try {
            Loaded loaded = load();
            context = loaded.context;
            description = loaded.description;
            digest = loaded.digest;
            log.info("TLS material reloaded for new connections: {}", description);
            return true;
        } catch (IllegalArgumentException e) {
            log.warn("TLS files changed but fail the checks; keeping the material in use ({}): {}", description,
                    e.getMessage());
            return false;
        }
    }

    private record Loaded(SslContext context, String description, byte[] digest) {
    }

    private Loaded load() {
        String side = server ? "protocol" : "reference";
        Path certFile = config.certificateChain();
        Path keyFile = config.privateKey();
        Path trustFile = config.trustRoots();
        byte[] certBytes = certFile != null ? PemFiles.read(certFile, side + " tls-cert") : null;
        byte[] keyBytes = keyFile != null ? PemFiles.read(keyFile, side + " tls-key") : null;
        byte[] trustBytes = trustFile != null ? PemFiles.read(trustFile, side + " tls-trust") : null;
        List<X509Certificate> chain = null;
        PrivateKey key = null;
        if (certBytes != null) {
            chain = PemFiles.certificates(certFile, side + " tls-cert", certBytes);
            PemFiles.checkValidNow(chain.get(0), certFile, side + " tls-cert");
            key = PemFiles.privateKey(keyFile, side + " tls-key", keyBytes, chain.get(0).getPublicKey().getAlgorithm());
            PemFiles.checkKeyMatches(key, keyFile, chain.get(0), certFile);
        }
        List<X509Certificate> trust = trustBytes != null ? PemFiles.certificates(trustFile, side + " tls-trust",
                trustBytes) : null;
        SslContextBuilder b = server ? SslContextBuilder.forServer(key, chain) : SslContextBuilder.forClient();
        if (!server && key != null) {
            b.keyManager(key, chain);
        }
        if (trust != null) {
            b.trustManager(trust);
        }
        if (server) {
            b.clientAuth(switch (config.clientAuth()) {
                case NONE -> ClientAuth.NONE;
                case OPTIONAL -> ClientAuth.OPTIONAL;
                case REQUIRE -> ClientAuth.REQUIRE;
            });
        } else {
            b.endpointIdentificationAlgorithm(config.verifyHostname() ? "HTTPS" : null);
        }
        b.protocols(config.protocols());
        if (!config.ciphers().isEmpty()) {
            b.ciphers(config.ciphers());
        }
        b.sslProvider(provider(side));
        SslContext built;
        try {
            built = b.build();
        } catch (SSLException | RuntimeException e) {
            throw new IllegalArgumentException(side + " TLS settings " + config + " cannot be used: " + e.getMessage(), e);
        }
        String what = chain == null ? "no certificate" : "certificate " + PemFiles.subject(chain.get(0))
                + " valid until " + chain.get(0).getNotAfter().toInstant() + " from " + certFile;
        return new Loaded(built, what, digest(certBytes, keyBytes, trustBytes));
    }

    private SslProvider provider(String side) {
        return switch (config.engine()) {
            case JDK -> SslProvider.JDK;
            case AUTO -> OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
            case OPENSSL -> {
                if (!OpenSsl.isAvailable()) {
                    throw new IllegalArgumentException(side + " tls-engine=openssl needs netty-tcnative on the class"
                            + " path (io.netty:netty-tcnative-boringssl-static), which is missing or cannot load: "
                            + OpenSsl.unavailabilityCause() + "; add it or use tls-engine=jdk");
                }
                yield SslProvider.OPENSSL;
            }
        };
    }

    private byte[] digestOfFiles() {
        String side = server ? "protocol" : "reference";
        return digest(config.certificateChain() != null ? PemFiles.read(config.certificateChain(), side + " tls-cert") : null,
                config.privateKey() != null ? PemFiles.read(config.privateKey(), side + " tls-key") : null,
                config.trustRoots() != null ? PemFiles.read(config.trustRoots(), side + " tls-trust") : null);
    }

    private static byte[] digest(byte[]... files) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (byte[] f : files) {
                md.update(f == null ? new byte[] {0} : f);
                md.update((byte) 0x1F);
            }
            return md.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }
}
