package io.kestrel.rpc.spring.boot;

import java.time.Duration;

/**
 * {@code rpc.reference.*}: defaults of every reference (attributes of {@code <rpc:reference>} and
 * {@code @RpcReference} win). Part of {@link KestrelRpcProperties}.
 */
public class ReferenceProperties extends TlsProperties {
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

    /** PEM trust roots for provider certificates. Default: the JDK's trust store. */
    private String tlsTrust;

    public String getTlsTrust() {
        return tlsTrust;
    }

    public void setTlsTrust(String tlsTrust) {
        this.tlsTrust = tlsTrust;
    }

    /** The provider's certificate must name the host dialled. Default true. */
    private String tlsVerifyHostname;

    public String getTlsVerifyHostname() {
        return tlsVerifyHostname;
    }

    public void setTlsVerifyHostname(String tlsVerifyHostname) {
        this.tlsVerifyHostname = tlsVerifyHostname;
    }
}
