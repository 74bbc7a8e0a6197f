package io.kestrel.rpc.spring.boot;

import java.time.Duration;

/**
 * {@code rpc.console.*}: the web console ({@code <rpc:console>}), served on its own port when enabled and
 * {@code io.kestrel:rpc-console} is on the class path. Part of {@link KestrelRpcProperties}.
 */
public class ConsoleProperties {
    /** Serve the web console. Default false. */
    private Boolean enabled;

    /** Bind address. Default 127.0.0.1 (this host only). */
    private String host;

    /** Port. Default 20890; 0 picks a free port. */
    private Integer port;

    /** Secret (16+ characters) that invoking and mutating requests send as "Authorization: Bearer <token>". */
    private String token;

    /** Let the invoke form call methods (generic invocation). Needs the token. Default false. */
    private Boolean allowInvoke;

    /** Let the console take this runtime's providers offline and online. Needs the token. Default false. */
    private Boolean allowMutations;

    /** Largest request body the console reads; larger ones are answered 413. Default 65536. */
    private Integer maxRequestBytes;

    /** Over how long the live call figures are computed (5s..1h). Default 60s. */
    private Duration window;

    /** Most connections the console keeps open at once; more are closed when accepted. Default 64. */
    private Integer maxConnections;

    /** Most connections one remote address keeps open at once. Default 16. */
    private Integer maxConnectionsPerHost;

    /** How long a request may take to arrive in full, and an answer to be read; over it the connection closes. Default 30s. */
    private Duration requestTimeout;

    public Boolean getEnabled() {
        return enabled;
    }

    public void setEnabled(Boolean enabled) {
        this.enabled = enabled;
    }

    public String getHost() {
        return host;
    }

    public void setHost(String host) {
        this.host = host;
    }

    public Integer getPort() {
        return port;
    }

    public void setPort(Integer port) {
        this.port = port;
    }

    public String getToken() {
        return token;
    }

    public void setToken(String token) {
        this.token = token;
    }

    public Boolean getAllowInvoke() {
        return allowInvoke;
    }

    public void setAllowInvoke(Boolean allowInvoke) {
        this.allowInvoke = allowInvoke;
    }

    public Boolean getAllowMutations() {
        return allowMutations;
    }

    public void setAllowMutations(Boolean allowMutations) {
        this.allowMutations = allowMutations;
    }

    public Integer getMaxRequestBytes() {
        return maxRequestBytes;
    }

    public void setMaxRequestBytes(Integer maxRequestBytes) {
        this.maxRequestBytes = maxRequestBytes;
    }

    public Duration getWindow() {
        return window;
    }

    public void setWindow(Duration window) {
        this.window = window;
    }

    public Integer getMaxConnections() {
        return maxConnections;
    }

    public void setMaxConnections(Integer maxConnections) {
        this.maxConnections = maxConnections;
    }

    public Integer getMaxConnectionsPerHost() {
        return maxConnectionsPerHost;
    }

    public void setMaxConnectionsPerHost(Integer maxConnectionsPerHost) {
        this.maxConnectionsPerHost = maxConnectionsPerHost;
    }

    public Duration getRequestTimeout() {
        return requestTimeout;
    }

    public void setRequestTimeout(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
    }
}
