package io.kestrel.rpc.spring.boot;

import java.time.Duration;

/**
 * {@code rpc.protocol.*}: the server and the defaults of references ({@code <rpc:protocol>}). Part of
 * {@link KestrelRpcProperties}.
 */
public class ProtocolProperties extends TlsProperties {
    /** Wire protocol: kestrel (the native one) or dubbo (Apache Dubbo's, for stock Dubbo consumers). Default kestrel. */
    private String name;

    /** Address to bind. Default 127.0.0.1 with a local registry; all interfaces with one other hosts read (docs/across-hosts.md). */
    private String host;

    /** Address published in the registry. Default: KESTREL_ADVERTISE_HOST, else the host; unset or 0.0.0.0 with a registry other hosts read: this machine's reachable address. */
    private String advertisedHost;

    /** Port to listen on; 0 picks a free one. Default 20880. */
    private Integer port;

    /** Default serialization of references and the one services accept: fory, kryo, fst, hessian2, fastjson2, java. Default fory. */
    private String serialization;

    /** Class name of a SerializationOptimizer registering the classes to serialize. */
    private String optimizer;

    /** Business threads that run service methods: a number (0 runs them on the I/O thread) or "virtual" (a virtual thread per call on JDK 21+; on older JDKs a startup message says so and 200 platform threads are used). Default 200. */
    private String threads;

    /** Calls that may wait for a business thread; beyond it callers get "server busy". Default 0. */
    private Integer queues;

    /** Netty I/O threads. Default: available processors. */
    private Integer iothreads;

    /** Largest frame body accepted or sent, in bytes. Default 8388608 (8 MiB). */
    private Integer payload;

    /** Comma-separated packages or classes allowed for deserialization besides the defaults. */
    private String allowedPackages;

    /** Tolerate fields added, removed or reordered between versions. Default false. */
    private Boolean compatible;

    /** Idle time after which a heartbeat is sent. Default 10s. */
    private Duration heartbeat;

    /** How long a stopping server waits for in-flight calls. Default 10s. */
    private Duration shutdownTimeout;

    /** Connections the server accepts in all; further ones are closed at once. Default 4096. */
    private Integer maxConnections;

    /** Connections the server accepts per remote address. Default 256. */
    private Integer maxConnectionsPerHost;

    /** Calls one connection may have running; further ones are answered "busy". Default: half of threads. */
    private Integer callsPerConnection;

    /** Bytes of requests being received or run and responses not yet written. Default: a quarter of the heap, 64 MiB..1 GiB. */
    private Long memoryBudget;

    /** A frame must arrive within this from its first byte. Default 30s. */
    private Duration frameTimeout;

    /** Bytes waiting for a connection that does not read, beyond which its requests are not read. Default 2097152 (2 MiB). */
    private Integer writeBuffer;

    /** A connection that stays over the write buffer this long is closed. Default 30s. */
    private Duration writeStallTimeout;

    /** Whether error answers for an unknown service or method list what the provider exports. Default false. */
    private Boolean discloseServices;

    /** How long the consumer of a client or bidirectional stream may hold credit without sending, half-closing or cancelling before the provider ends the stream; 0 never. Default 5m. */
    private Duration streamIdleTimeout;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getHost() {
        return host;
    }

    public void setHost(String host) {
        this.host = host;
    }

    public String getAdvertisedHost() {
        return advertisedHost;
    }

    public void setAdvertisedHost(String advertisedHost) {
        this.advertisedHost = advertisedHost;
    }

    public Integer getPort() {
        return port;
    }

    public void setPort(Integer port) {
        this.port = port;
    }

    public String getSerialization() {
        return serialization;
    }

    public void setSerialization(String serialization) {
        this.serialization = serialization;
    }

    public String getOptimizer() {
        return optimizer;
    }

    public void setOptimizer(String optimizer) {
        this.optimizer = optimizer;
    }

    public String getThreads() {
        return threads;
    }

    public void setThreads(String threads) {
        this.threads = threads;
    }

    public Integer getQueues() {
        return queues;
    }

    public void setQueues(Integer queues) {
        this.queues = queues;
    }

    public Integer getIothreads() {
        return iothreads;
    }

    public void setIothreads(Integer iothreads) {
        this.iothreads = iothreads;
    }

    public Integer getPayload() {
        return payload;
    }

    public void setPayload(Integer payload) {
        this.payload = payload;
    }

    public String getAllowedPackages() {
        return allowedPackages;
    }

    public void setAllowedPackages(String allowedPackages) {
        this.allowedPackages = allowedPackages;
    }

    public Boolean getCompatible() {
        return compatible;
    }

    public void setCompatible(Boolean compatible) {
        this.compatible = compatible;
    }

    public Duration getHeartbeat() {
        return heartbeat;
    }

    public void setHeartbeat(Duration heartbeat) {
        this.heartbeat = heartbeat;
    }

    public Duration getShutdownTimeout() {
        return shutdownTimeout;
    }

    public void setShutdownTimeout(Duration shutdownTimeout) {
        this.shutdownTimeout = shutdownTimeout;
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

    public Integer getCallsPerConnection() {
        return callsPerConnection;
    }

    public void setCallsPerConnection(Integer callsPerConnection) {
        this.callsPerConnection = callsPerConnection;
    }

    public Long getMemoryBudget() {
        return memoryBudget;
    }

    public void setMemoryBudget(Long memoryBudget) {
        this.memoryBudget = memoryBudget;
    }

    public Duration getFrameTimeout() {
        return frameTimeout;
    }

    public void setFrameTimeout(Duration frameTimeout) {
        this.frameTimeout = frameTimeout;
    }

    public Integer getWriteBuffer() {
        return writeBuffer;
    }

    public void setWriteBuffer(Integer writeBuffer) {
        this.writeBuffer = writeBuffer;
    }

    public Duration getWriteStallTimeout() {
        return writeStallTimeout;
    }

    public void setWriteStallTimeout(Duration writeStallTimeout) {
        this.writeStallTimeout = writeStallTimeout;
    }

    public Boolean getDiscloseServices() {
        return discloseServices;
    }

    public void setDiscloseServices(Boolean discloseServices) {
        this.discloseServices = discloseServices;
    }

    public Duration getStreamIdleTimeout() {
        return streamIdleTimeout;
    }

    public void setStreamIdleTimeout(Duration streamIdleTimeout) {
        this.streamIdleTimeout = streamIdleTimeout;
    }

    /** Name of the Authenticator (ServiceLoader) that checks consumers' tokens. Default none. */
    private String authenticator;

    public String getAuthenticator() {
        return authenticator;
    }

    public void setAuthenticator(String authenticator) {
        this.authenticator = authenticator;
    }

    /** PEM certificate chain of this provider; setting any tls-* turns TLS on. */
    private String tlsCert;

    public String getTlsCert() {
        return tlsCert;
    }

    public void setTlsCert(String tlsCert) {
        this.tlsCert = tlsCert;
    }

    /** PEM trust roots for client certificates. */
    private String tlsTrust;

    public String getTlsTrust() {
        return tlsTrust;
    }

    public void setTlsTrust(String tlsTrust) {
        this.tlsTrust = tlsTrust;
    }

    /** none, optional or require. Default none. */
    private String tlsClientAuth;

    public String getTlsClientAuth() {
        return tlsClientAuth;
    }

    public void setTlsClientAuth(String tlsClientAuth) {
        this.tlsClientAuth = tlsClientAuth;
    }
}
