package io.kestrel.rpc.spring.boot;

/**
 * The {@code tls-*} settings {@code rpc.protocol.*} (the server) and {@code rpc.reference.*} (the references) share
 * with one meaning; each side adds its own certificate, trust and peer-check settings.
 */
public abstract class TlsProperties {
    /** PEM private key (PKCS#8) of tls-cert. */
    private String tlsKey;

    public String getTlsKey() {
        return tlsKey;
    }

    public void setTlsKey(String tlsKey) {
        this.tlsKey = tlsKey;
    }

    /** TLS versions, comma-separated. Default TLSv1.3,TLSv1.2. */
    private String tlsProtocols;

    public String getTlsProtocols() {
        return tlsProtocols;
    }

    public void setTlsProtocols(String tlsProtocols) {
        this.tlsProtocols = tlsProtocols;
    }

    /** Cipher suites, comma-separated. Default: the engine's. */
    private String tlsCiphers;

    public String getTlsCiphers() {
        return tlsCiphers;
    }

    public void setTlsCiphers(String tlsCiphers) {
        this.tlsCiphers = tlsCiphers;
    }

    /** Time a connection has to finish its TLS handshake. Default 10s. */
    private String tlsHandshakeTimeout;

    public String getTlsHandshakeTimeout() {
        return tlsHandshakeTimeout;
    }

    public void setTlsHandshakeTimeout(String tlsHandshakeTimeout) {
        this.tlsHandshakeTimeout = tlsHandshakeTimeout;
    }

    /** How often the PEM files are checked for renewal; 0 turns it off. Default 60s. */
    private String tlsReload;

    public String getTlsReload() {
        return tlsReload;
    }

    public void setTlsReload(String tlsReload) {
        this.tlsReload = tlsReload;
    }

    /** jdk, openssl or auto. Default jdk. */
    private String tlsEngine;

    public String getTlsEngine() {
        return tlsEngine;
    }

    public void setTlsEngine(String tlsEngine) {
        this.tlsEngine = tlsEngine;
    }
}
