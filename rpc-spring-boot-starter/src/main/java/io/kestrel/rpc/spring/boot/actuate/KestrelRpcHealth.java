package io.kestrel.rpc.spring.boot.actuate;

import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.core.ReferenceView;
import io.kestrel.rpc.core.RpcRuntime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The health of a {@link RpcRuntime}, independent of the Boot version's health API: up when
 * <ul>
 *   <li>the registry is connected (when the runtime uses one and has connected it),</li>
 *   <li>the server is accepting calls (when the runtime exports services), and</li>
 *   <li>every {@code check=true} reference has at least one provider whose connection is ready.</li>
 * </ul>
 * The {@linkplain #server server-only} form (for liveness) looks at the server alone: a registry outage must
 * not make Kubernetes restart a provider that serves its current consumers fine.
 *
 * @param up whether everything checked is fine
 * @param details what was checked, for the health endpoint
 */
public record KestrelRpcHealth(boolean up, Map<String, Object> details) {

    /** Registry, server and references. */
    public static KestrelRpcHealth of(RpcRuntime runtime) {
        Map<String, Object> details = new LinkedHashMap<>();
        boolean up = true;
        RegistryConfig registry = runtime.registryConfig();
        if (registry != null) {
            boolean connected = runtime.registryConnected();
            boolean used = connected || !runtime.services().isEmpty() || runtime.references().stream()
                    .anyMatch(r -> !r.source().startsWith("direct"));
            details.put("registry", Map.of("address", registry.address(), "connected", connected));
            up &= connected || !used;
        }
        up &= server(runtime, details);
        List<String> missing = new ArrayList<>();
        Map<String, Object> references = new LinkedHashMap<>();
        for (ReferenceView r : runtime.references()) {
            long ready = r.providers().stream().filter(ReferenceView.Provider::ready).count();
            references.put(r.service(), Map.of("check", r.check(), "providers", r.providers().size(), "ready", ready));
            if (r.check() && ready == 0) {
                missing.add(r.service());
            }
        }
        if (!references.isEmpty()) {
            details.put("references", references);
        }
        if (!missing.isEmpty()) {
            details.put("noReadyProvider", missing);
            up = false;
        }
        return new KestrelRpcHealth(up, details);
    }

    /** The server alone: accepting while the runtime exports services (up when it exports none). */
    public static KestrelRpcHealth server(RpcRuntime runtime) {
        Map<String, Object> details = new LinkedHashMap<>();
        boolean up = server(runtime, details);
        return new KestrelRpcHealth(up, details);
    }

    private static boolean server(RpcRuntime runtime, Map<String, Object> details) {
        if (runtime.services().isEmpty()) {
            return true;
        }
        boolean accepting = runtime.serverAccepting();
        details.put("server", Map.of("port", runtime.boundPort(), "accepting", accepting,
                "services", runtime.services().size(), "inFlightCalls", runtime.inFlightCalls()));
        return accepting;
    }
}
