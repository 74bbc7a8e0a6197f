package io.kestrel.rpc.spring.boot;

/** {@code rpc.service.*}: defaults of every service. Part of {@link KestrelRpcProperties}. */
public class ServiceProperties {
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
