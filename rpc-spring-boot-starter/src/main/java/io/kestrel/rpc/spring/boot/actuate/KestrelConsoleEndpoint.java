package io.kestrel.rpc.spring.boot.actuate;

import io.kestrel.rpc.console.KestrelConsole;
import io.kestrel.rpc.core.RpcRuntime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * The web console's JSON under the actuator ({@code /actuator/kestrelconsole/{document}} once exposed with
 * {@code management.endpoints.web.exposure.include}), for applications whose runtime serves the console
 * ({@code rpc.console.enabled=true}): {@code overview}, {@code services}, {@code registry} (provider and
 * consumer records), {@code connections} and {@code calls} (the live per-method figures). Read-only: invoking
 * and offline/online stay on the console's own port, behind its token. Reads the {@link KestrelConsole} attached to
 * the runtime (module {@code rpc-console}).
 */
@Endpoint(id = "kestrelconsole")
public class KestrelConsoleEndpoint {
    static final List<String> DOCUMENTS = List.of("overview", "services", "registry", "connections", "calls");

    private final RpcRuntime runtime;

    public KestrelConsoleEndpoint(RpcRuntime runtime) {
        this.runtime = runtime;
    }

    /** The documents there are, and where the console's pages are served. */
    @ReadOperation
    public Map<String, Object> documents() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("documents", DOCUMENTS);
        out.put("consolePort", runtime.addOn(KestrelConsole.class).map(KestrelConsole::port).orElse(-1));
        return out;
    }

    /** One document; null (404) for an unknown name. */
    @ReadOperation
    public Map<String, Object> document(@Selector String name) {
        return DOCUMENTS.contains(name) ? console().document(name) : null;
    }

    private KestrelConsole console() {
        return runtime.addOn(KestrelConsole.class).orElseThrow(() -> new IllegalStateException(
                "this RpcRuntime serves no web console (rpc.console.enabled)"));
    }
}
