package io.kestrel.rpc.spring.boot;

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
    @NestedConfigurationProperty
    private final ApplicationProperties application = new ApplicationProperties();

    /** Settings of the registry (<rpc:registry>). */
    @NestedConfigurationProperty
    private final RegistryProperties registry = new RegistryProperties();

    /** Settings of the server and the defaults of references (<rpc:protocol>). */
    @NestedConfigurationProperty
    private final ProtocolProperties protocol = new ProtocolProperties();

    /** Settings of defaults of every reference (attributes of <rpc:reference> and @RpcReference win). */
    @NestedConfigurationProperty
    private final ReferenceProperties reference = new ReferenceProperties();

    /** Settings of defaults of every service (attributes of <rpc:service> and @RpcService win). */
    @NestedConfigurationProperty
    private final ServiceProperties service = new ServiceProperties();

    /** Settings of the web console (<rpc:console>; needs io.kestrel:rpc-console). */
    @NestedConfigurationProperty
    private final ConsoleProperties console = new ConsoleProperties();

    /** One log line per call on io.kestrel.rpc.access.client / .server. Default false. */
    private Boolean accessLog;

    /** What an unknown rpc.* key does at startup: fail or warn. Default fail. */
    private String unknownKeys;

    /**
     * Where futures of asynchronous methods complete and streams' response observers run: pool (the callback
     * executor) or direct (the thread that ends the call / the connection's I/O thread, no hand-off; only for
     * callbacks and observers that never block). Default pool.
     */
    private String callbacks;

    public ServiceProperties getService() {
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

    public ApplicationProperties getApplication() {
        return application;
    }

    public RegistryProperties getRegistry() {
        return registry;
    }

    public ProtocolProperties getProtocol() {
        return protocol;
    }

    public ReferenceProperties getReference() {
        return reference;
    }
}
