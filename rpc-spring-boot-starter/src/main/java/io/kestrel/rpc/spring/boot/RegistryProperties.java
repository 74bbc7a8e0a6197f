package io.kestrel.rpc.spring.boot;

import java.time.Duration;

/** {@code rpc.registry.*}: the registry ({@code <rpc:registry>}). Part of {@link KestrelRpcProperties}. */
public class RegistryProperties {
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
