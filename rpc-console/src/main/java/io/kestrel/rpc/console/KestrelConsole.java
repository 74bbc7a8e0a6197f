package io.kestrel.rpc.console;

import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import io.kestrel.rpc.console.internal.Console;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.RuntimeAddOn;
import java.util.List;
import java.util.Map;

/**
 * The web console of one runtime, attached from outside as an add-on: it serves the runtime's
 * {@linkplain RpcRuntime#inspect() inspector} (services, references, connections, registry records, figures), its
 * own live call figures, the invoke form and offline/online on its own admin port.
 *
 * <pre>{@code
 * KestrelConsole console = KestrelConsole.of(ConsoleConfig.builder().enabled(true).port(0).build());
 * RpcRuntime runtime = RpcRuntime.builder().addOn(console).registry(...).build();   // binds the console's port
 * console.port();                                                                 // closed with the runtime
 * }</pre>
 *
 * In Spring, {@code <rpc:console>} and {@code rpc.console.*} attach it to the context's runtime when this artifact is
 * on the class path. Thread-safe.
 */
public final class KestrelConsole implements RuntimeAddOn {
    private final Console console;

    private KestrelConsole(ConsoleConfig config) {
        this.console = new Console(config);
    }

    /**
     * A console with {@code config}, served once attached to a runtime that is built.
     *
     * @throws IllegalArgumentException when {@code config} is not enabled
     */
    public static KestrelConsole of(ConsoleConfig config) {
        if (!config.enabled()) {
            throw new IllegalArgumentException("this ConsoleConfig is disabled (rpc.console.enabled=false): build it"
                    + " with enabled(true) to serve the console, or attach none");
        }
        return new KestrelConsole(config);
    }

    /** Counts the calls of the runtime's references (the console's live call figures). */
    @Override
    public List<ClientInterceptor> clientInterceptors() {
        return List.of(console.clientInterceptor());
    }

    /** Counts the calls the runtime's services serve. */
    @Override
    public List<ServerInterceptor> serverInterceptors() {
        return List.of(console.serverInterceptor());
    }

    /**
     * Binds the admin port and serves {@code runtime}; called by the runtime's {@code build()}.
     *
     * @throws io.kestrel.rpc.api.TransportException if the port cannot be bound
     */
    @Override
    public void start(RpcRuntime runtime) {
        console.start(runtime);
    }

    /** The bound port once started, else -1. */
    public int port() {
        return console.port();
    }

    /**
     * One of the console's JSON documents as plain maps, lists, strings, numbers and booleans: {@code overview},
     * {@code services}, {@code registry}, {@code connections} or {@code calls} (what its pages show; for an
     * actuator endpoint).
     *
     * @throws IllegalStateException before the console started
     * @throws IllegalArgumentException for another name
     */
    public Map<String, Object> document(String name) {
        return console.document(name);
    }

    /** Stops serving; called when the runtime closes. Idempotent. */
    @Override
    public void close() {
        console.close();
    }
}
