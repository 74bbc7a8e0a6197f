package io.kestrel.rpc.spring.boot.actuate;

import io.kestrel.rpc.core.ConnectionView;
import io.kestrel.rpc.core.ReferenceView;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.RuntimeInspector;
import io.kestrel.rpc.core.RuntimeSnapshot;
import io.kestrel.rpc.core.ServiceView;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The {@code kestrel} actuator endpoint ({@code /actuator/kestrel} once exposed with
 * {@code management.endpoints.web.exposure.include}): what the application exports (methods, serializations,
 * weight, warm-up), what it references (each provider with its connection state and current weight), its
 * connections with their pending calls, and the server's in-flight calls. Read-only.
 */
@Endpoint(id = "kestrel")
public class KestrelRpcEndpoint {
    private final RpcRuntime runtime;

    public KestrelRpcEndpoint(RpcRuntime runtime) {
        this.runtime = runtime;
    }

    @ReadOperation
    public Map<String, Object> kestrel() {
        RuntimeInspector inspector = runtime.inspect();
        RuntimeSnapshot now = inspector.snapshot();
        List<ServiceView> services = inspector.services();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("application", runtime.application() != null ? runtime.application().name() : null);
        out.put("registry", runtime.registryConfig() != null ? runtime.registryConfig().address() : "none");
        out.put("registryConnected", now.registryConnected());
        Map<String, Object> server = new LinkedHashMap<>();
        server.put("accepting", now.server().accepting());
        server.put("port", services.isEmpty() ? null : runtime.boundPort());
        server.put("inFlightCalls", now.server().inFlightCalls());
        server.put("connections", now.server().connections());
        out.put("server", server);
        out.put("services", services.stream().map(KestrelRpcEndpoint::service).toList());
        out.put("references", inspector.references().stream().map(KestrelRpcEndpoint::reference).toList());
        out.put("connections", inspector.connections().stream().map(KestrelRpcEndpoint::connection).toList());
        out.put("pendingCalls", now.client().pendingCalls());
        return out;
    }

    private static Map<String, Object> service(ServiceView s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("service", s.service());
        m.put("address", s.address());
        m.put("methods", s.methods());
        m.put("serializations", s.serializations());
        m.put("weight", s.weight());
        m.put("warmupMillis", s.warmupMillis());
        return m;
    }

    private static Map<String, Object> reference(ReferenceView r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("service", r.service());
        m.put("source", r.source());
        m.put("check", r.check());
        List<Map<String, Object>> providers = r.providers().stream().map(p -> {
            Map<String, Object> pm = new LinkedHashMap<>();
            pm.put("address", p.address());
            pm.put("state", p.state());
            pm.put("weight", p.weight());
            pm.put("effectiveWeight", p.effectiveWeight());
            pm.put("ejected", p.ejected());
            pm.put("ejections", p.ejections());
            pm.put("unlisted", p.unlisted());
            return pm;
        }).toList();
        m.put("providers", providers);
        return m;
    }

    private static Map<String, Object> connection(ConnectionView c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("address", c.address());
        m.put("state", c.state());
        m.put("pendingCalls", c.pendingCalls());
        return m;
    }
}
