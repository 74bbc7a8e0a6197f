package io.kestrel.rpc.spring.boot;

/**
 * {@code rpc.application.*}: the application ({@code <rpc:application>}). Part of {@link KestrelRpcProperties}.
 */
public class ApplicationProperties {
    /** Application name, published with every provider record. Default: spring.application.name, else "kestrel-application". */
    private String name;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }
}
