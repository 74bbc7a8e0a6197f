package io.kestrel.rpc.spring.boot.actuate;

import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.core.ReferenceView;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.RuntimeInspector;
import io.kestrel.rpc.core.RuntimeSnapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The health of a {@link RpcRuntime}, independent of the Boot version's health API: up when
 * <ul>
 *   <li>the server is accepting calls (when the runtime exports services),</li>
 *   <li>the registry is connected (when the runtime uses one and has connected it; counted only when
 *       {@link Counted#registry()}), and</li>
 *   <li>every {@code check=true} reference has at least one provider whose connection is ready (counted only
 *       when {@link Counted#references()}).</li>
 * </ul>
 * What is not counted is still reported in the details (and listed under {@code notCounted}). By default the
 * starter counts neither: readiness does not cascade, so a ZooKeeper blink or a downstream outage does not take
 * every pod out of its Service (docs/across-hosts.md). The {@linkplain #server server-only} form (for liveness)
 * looks at the server alone: a registry outage must not make Kubernetes restart a provider that serves its
 * current consumers fine.
 *
 * @param up whether everything checked is fine
 * @param details what was checked, for the health endpoint
 */
public record KestrelRpcHealth(boolean up, Map<String, Object> details) {

    /**
     * Which reported conditions make the status DOWN besides the server.
     *
     * @param registry the registry connection ({@code management.health.kestrel.readiness-includes-registry})
     * @param references {@code check=true} references without a ready provider
     *     ({@code management.health.kestrel.readiness-includes-references})
     */
    public record Counted(boolean registry, boolean references) {
        /** Everything counted. */
        public static final Counted ALL = new Counted(true, true);
        /** The starter's default: the server alone decides; registry and references are reported only. */
        public static final Counted SERVER_ONLY = new Counted(false, false);
    }

    /** Registry, server and references, all counted. */
    public static KestrelRpcHealth of(RpcRuntime runtime) {
        return of(runtime, Counted.ALL);
    }

    /** Registry, server and references, reported; the status counts the server and what {@code counted} says. */
    public static KestrelRpcHealth of(RpcRuntime runtime, Counted counted) {
        Map<String, Object> details = new LinkedHashMap<>();
        boolean up = true;
        boolean registryUp = true;
        RuntimeInspector inspector = runtime.inspect();
        List<ReferenceView> views = inspector.references();
        RegistryConfig registry = runtime.registryConfig();
        if (registry != null) {
            boolean connected = inspector.snapshot().registryConnected();
            boolean used = connected || !inspector.services().isEmpty() || views.stream()
                    .anyMatch(r -> !r.source().startsWith("direct"));
            details.put("registry", Map.of("address", registry.address(), "connected", connected));
            registryUp = connected || !used;
        }
        up &= server(runtime, details);
        List<String> missing = new ArrayList<>();
        Map<String, Object> references = new LinkedHashMap<>();
        for (ReferenceView r : views) {
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
        }
        up &= registryUp || !counted.registry();
        up &= missing.isEmpty() || !counted.references();
        List<String> notCounted = new ArrayList<>();
        if (!counted.registry() && runtime.registryConfig() != null) {
            notCounted.add("registry");
        }
        if (!counted.references() && !references.isEmpty()) {
            notCounted.add("references");
        }
        if (!notCounted.isEmpty()) {
            details.put("notCounted", notCounted);
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
        int services = runtime.inspect().services().size();
        if (services == 0) {
            return true;
        }
        RuntimeSnapshot.Server server = runtime.inspect().snapshot().server();
        details.put("server", Map.of("port", runtime.boundPort(), "accepting", server.accepting(),
                "services", services, "inFlightCalls", server.inFlightCalls()));
        return server.accepting();
    }
}
