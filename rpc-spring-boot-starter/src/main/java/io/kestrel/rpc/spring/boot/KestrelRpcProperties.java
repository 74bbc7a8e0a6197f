package io.kestrel.rpc.spring.boot;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * The {@code rpc.*} settings of a Spring Boot application, with the keys the Spring {@code Environment} binding
 * of rpc-spring reads ({@code rpc.protocol.port}, {@code rpc.registry.address}, ...). This class exists for
 * Boot's configuration metadata (IDE completion and typo warnings) and for Boot's type checks at startup:
 * a value of the wrong type or an unknown key under {@code rpc.} fails startup naming the key. The runtime
 * itself is built by rpc-spring from the same {@code Environment} keys, so one set of defaults applies
 * (they are in each property's description; unset means the default).
 */
@ConfigurationProperties(prefix = "rpc", ignoreUnknownFields = false)
public class KestrelRpcProperties {

    /** Settings of the application (<rpc:application>). */
    private final Application application = new Application();

    /** Settings of the registry (<rpc:registry>). */
    private final Registry registry = new Registry();

    /** Settings of the server and the defaults of references (<rpc:protocol>). */
    private final Protocol protocol = new Protocol();

    /** Settings of defaults of every reference (attributes of <rpc:reference> and @RpcReference win). */
    private final Reference reference = new Reference();

    /** Settings of defaults of every service (attributes of <rpc:service> and @RpcService win). */
    private final Service service = new Service();

    /** Settings of the web console (<rpc:console>; needs io.kestrel:rpc-console). */
    @NestedConfigurationProperty
    private final ConsoleProperties console = new ConsoleProperties();

    /** One log line per call on io.kestrel.rpc.access.client / .server. Default false. */
    private Boolean accessLog;

    /** What an unknown rpc.* key does at startup: fail or warn. Default fail. */
    private String unknownKeys;

    /**
     * Where futures of asynchronous methods complete: pool (the callback executor) or direct (the thread that ends
     * the call, no hand-off; only for callbacks that never block). Default pool.
     */
    private String callbacks;

    public Service getService() {
        return service;
    }

    public ConsoleProperties getConsole() {
        return console;
    }

    public Boolean getAccessLog() {
        return accessLog;
    }

    public void setAccessLog(Boolean accessLog) {
        this.accessLog = accessLog;
    }

    public String getUnknownKeys() {
        return unknownKeys;
    }

    public void setUnknownKeys(String unknownKeys) {
        this.unknownKeys = unknownKeys;
    }

    public String getCallbacks() {
        return callbacks;
    }

    public void setCallbacks(String callbacks) {
        this.callbacks = callbacks;
    }

    public Application getApplication() {
        return application;
    }

    public Registry getRegistry() {
        return registry;
    }

    public Protocol getProtocol() {
        return protocol;
    }

    public Reference getReference() {
        return reference;
    }

    /** {@code rpc.application.*}: the application ({@code <rpc:application>}). */
    public static class Application {
        /** Application name, published with every provider record. Default: spring.application.name, else "kestrel-application". */
        private String name;

        public String getName() {
            return name;
        }

        public void setName(String name) {
            this.name = name;
        }
    }

    /** {@code rpc.registry.*}: the registry ({@code <rpc:registry>}). */
    public static class Registry {
        /** Registry address: zookeeper://host:port[,host:port...], embedded (an in-process ZooKeeper) or embedded://port. Default: embedded. */
        private String address;

        /** Root node of the registry records. Default "/kestrel". */
        private String root;

        /** Root node of Apache Dubbo's layout, where dubbo-protocol providers are published and found. Default "/dubbo". */
        private String dubboRoot;

        /** ZooKeeper session timeout. Default 30s. */
        private Duration sessionTimeout;

        /** How long to wait for the registry connection (and a reference's first provider list). Default 10s. */
        private Duration connectionTimeout;

        /**
         * Keep calling providers the registry stops listing while their connections are healthy (the registry is
         * advice, the connection is truth). Default true.
         */
        private Boolean emptyProtection;

        public Boolean getEmptyProtection() {
            return emptyProtection;
        }

        public void setEmptyProtection(Boolean emptyProtection) {
            this.emptyProtection = emptyProtection;
        }

        /** How long a closing provider waits for ZooKeeper to delete its records before draining (none while ZooKeeper is unreachable). Default 3s. */
        private Duration unregisterTimeout;

        public String getAddress() {
            return address;
        }

        public void setAddress(String address) {
            this.address = address;
        }

        public String getRoot() {
            return root;
        }

        public void setRoot(String root) {
            this.root = root;
        }

        public String getDubboRoot() {
            return dubboRoot;
        }

        public void setDubboRoot(String dubboRoot) {
            this.dubboRoot = dubboRoot;
        }

        public Duration getSessionTimeout() {
            return sessionTimeout;
        }

        public void setSessionTimeout(Duration sessionTimeout) {
            this.sessionTimeout = sessionTimeout;
        }

        public Duration getConnectionTimeout() {
            return connectionTimeout;
        }

        public void setConnectionTimeout(Duration connectionTimeout) {
            this.connectionTimeout = connectionTimeout;
        }

        public Duration getUnregisterTimeout() {
            return unregisterTimeout;
        }

        public void setUnregisterTimeout(Duration unregisterTimeout) {
            this.unregisterTimeout = unregisterTimeout;
        }
    }

    /** {@code rpc.protocol.*}: the server and the defaults of references ({@code <rpc:protocol>}). */
    public static class Protocol {
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

        /** PEM private key (PKCS#8) of tls-cert. */
        private String tlsKey;

        public String getTlsKey() {
            return tlsKey;
        }

        public void setTlsKey(String tlsKey) {
            this.tlsKey = tlsKey;
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

    /** {@code rpc.reference.*}: defaults of every reference (attributes of {@code <rpc:reference>} and {@code @RpcReference} win). */
    public static class Reference {
        /** Wire protocol to providers: kestrel or dubbo (stock Apache Dubbo providers). Default kestrel. */
        private String protocol;

        public String getProtocol() {
            return protocol;
        }

        public void setProtocol(String protocol) {
            this.protocol = protocol;
        }

        /** Deadline of each call. Default: the provider's published service timeout, else 3s. */
        private Duration timeout;

        /** Extra attempts on other providers with cluster failover. Default 2. */
        private Integer retries;

        /** random, roundrobin, leastactive or consistenthash. Default random. */
        private String loadbalance;

        /** failover, failfast or failsafe. Default failover. */
        private String cluster;

        /** Fail startup when no provider is reachable. Default true. */
        private Boolean check;

        /** TCP connect timeout. Default 3s. */
        private Duration connectTimeout;

        public Duration getTimeout() {
            return timeout;
        }

        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }

        public Integer getRetries() {
            return retries;
        }

        public void setRetries(Integer retries) {
            this.retries = retries;
        }

        public String getLoadbalance() {
            return loadbalance;
        }

        public void setLoadbalance(String loadbalance) {
            this.loadbalance = loadbalance;
        }

        public String getCluster() {
            return cluster;
        }

        public void setCluster(String cluster) {
            this.cluster = cluster;
        }

        public Boolean getCheck() {
            return check;
        }

        public void setCheck(Boolean check) {
            this.check = check;
        }

        public Duration getConnectTimeout() {
            return connectTimeout;
        }

        public void setConnectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
        }

        /** Most calls of each method in flight from this consumer; over it a call fails unsent. Default 0 (no limit). */
        private Integer actives;

        /** Outgoing calls made while serving a call get at most its remaining time. Default true. */
        private Boolean propagateDeadline;

        public Integer getActives() {
            return actives;
        }

        public void setActives(Integer actives) {
            this.actives = actives;
        }

        public Boolean getPropagateDeadline() {
            return propagateDeadline;
        }

        public void setPropagateDeadline(Boolean propagateDeadline) {
            this.propagateDeadline = propagateDeadline;
        }

        /** Timeouts or transport failures in a row that eject a provider from balancing; 0 = off. Default 5. */
        private Integer outlierFailures;

        /** The first ejection's length (doubling on each ejection in a row). Default 1s. */
        private Duration outlierEjection;

        /** The longest ejection. Default 30s. */
        private Duration outlierMaxEjection;

        /** Largest share of a reference's providers ejected at once, in percent. Default 50. */
        private Integer outlierMaxEjectedPercent;

        /** Failover retries allowed as a share of calls over 10 s, in percent. Default 20. */
        private Integer retryBudgetPercent;

        /** Retries allowed per second on top of the share. Default 10. */
        private Integer retryBudgetMinPerSecond;

        public Integer getOutlierFailures() {
            return outlierFailures;
        }

        public void setOutlierFailures(Integer outlierFailures) {
            this.outlierFailures = outlierFailures;
        }

        public Duration getOutlierEjection() {
            return outlierEjection;
        }

        public void setOutlierEjection(Duration outlierEjection) {
            this.outlierEjection = outlierEjection;
        }

        public Duration getOutlierMaxEjection() {
            return outlierMaxEjection;
        }

        public void setOutlierMaxEjection(Duration outlierMaxEjection) {
            this.outlierMaxEjection = outlierMaxEjection;
        }

        public Integer getOutlierMaxEjectedPercent() {
            return outlierMaxEjectedPercent;
        }

        public void setOutlierMaxEjectedPercent(Integer outlierMaxEjectedPercent) {
            this.outlierMaxEjectedPercent = outlierMaxEjectedPercent;
        }

        public Integer getRetryBudgetPercent() {
            return retryBudgetPercent;
        }

        public void setRetryBudgetPercent(Integer retryBudgetPercent) {
            this.retryBudgetPercent = retryBudgetPercent;
        }

        public Integer getRetryBudgetMinPerSecond() {
            return retryBudgetMinPerSecond;
        }

        public void setRetryBudgetMinPerSecond(Integer retryBudgetMinPerSecond) {
            this.retryBudgetMinPerSecond = retryBudgetMinPerSecond;
        }

        /** Token sent once per connection for the provider's authenticator (use a placeholder). */
        private String token;

        public String getToken() {
            return token;
        }

        public void setToken(String token) {
            this.token = token;
        }

        /** PEM client certificate chain (mutual TLS); setting any tls-* turns TLS on. */
        private String tlsCert;

        public String getTlsCert() {
            return tlsCert;
        }

        public void setTlsCert(String tlsCert) {
            this.tlsCert = tlsCert;
        }

        /** PEM private key (PKCS#8) of tls-cert. */
        private String tlsKey;

        public String getTlsKey() {
            return tlsKey;
        }

        public void setTlsKey(String tlsKey) {
            this.tlsKey = tlsKey;
        }

        /** PEM trust roots for provider certificates. Default: the JDK's trust store. */
        private String tlsTrust;

        public String getTlsTrust() {
            return tlsTrust;
        }

        public void setTlsTrust(String tlsTrust) {
            this.tlsTrust = tlsTrust;
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

        /** The provider's certificate must name the host dialled. Default true. */
        private String tlsVerifyHostname;

        public String getTlsVerifyHostname() {
            return tlsVerifyHostname;
        }

        public void setTlsVerifyHostname(String tlsVerifyHostname) {
            this.tlsVerifyHostname = tlsVerifyHostname;
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

    /** {@code rpc.service.*}: defaults of every service. */
    public static class Service {
        /** Most concurrent invocations of each method; over it the provider answers busy. Default 0 (no limit). */
        private Integer executes;

        public Integer getExecutes() {
            return executes;
        }

        public void setExecutes(Integer executes) {
            this.executes = executes;
        }

        /**
         * Where methods run: auto (direct on the I/O thread for @NonBlocking and CompletableFuture methods,
         * the business threads otherwise), pool, or direct (every method on the I/O thread; must never block).
         * Default auto.
         */
        private String dispatch;

        public String getDispatch() {
            return dispatch;
        }

        public void setDispatch(String dispatch) {
            this.dispatch = dispatch;
        }

        /**
         * Whether services answer generic calls ($invoke) and metadata requests ($metadata); only callers a
         * service admits get either. Default true.
         */
        private Boolean generic;

        public Boolean getGeneric() {
            return generic;
        }

        public void setGeneric(Boolean generic) {
            this.generic = generic;
        }
}
}
