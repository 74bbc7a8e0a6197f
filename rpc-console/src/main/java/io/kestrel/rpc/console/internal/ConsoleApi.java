package io.kestrel.rpc.console.internal;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.console.ConsoleConfig;
import io.kestrel.rpc.api.registry.ConsumerInfo;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.core.ConnectionView;
import io.kestrel.rpc.core.Exporter;
import io.kestrel.rpc.core.ReferenceView;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.RuntimeInspector;
import io.kestrel.rpc.core.RuntimeSnapshot;
import io.kestrel.rpc.core.ServiceView;
import io.kestrel.rpc.core.TransportStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The console's read-only JSON documents, built from the runtime's inspector (views, one snapshot of its figures,
 * the registry's records) at each request, and its two mutations (offline, online, on the export's handle). Runs on the console's worker thread, never on an event loop: the
 * registry reads may block.
 */
final class ConsoleApi {
    private final RpcRuntime runtime;
    private final RuntimeInspector inspector;
    private final ConsoleConfig config;
    private final ConsoleAccess access;

    ConsoleApi(RpcRuntime runtime, ConsoleConfig config, ConsoleAccess access) {
        this.runtime = runtime;
        this.inspector = runtime.inspect();
        this.config = config;
        this.access = access;
    }

    Map<String, Object> overview() {
        RuntimeSnapshot now = inspector.snapshot();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("application", runtime.application() == null ? null : runtime.application().name());
        Map<String, Object> console = new LinkedHashMap<>();
        console.put("invoke", access.allowed(ConsoleAccess.Action.INVOKE));
        console.put("mutations", access.allowed(ConsoleAccess.Action.MUTATE));
        console.put("windowSeconds", config.window().toSeconds());
        out.put("console", console);
        Map<String, Object> registry = new LinkedHashMap<>();
        registry.put("address", runtime.registryConfig() == null ? null : runtime.registryConfig().address());
        registry.put("state", now.registry().name());
        out.put("registry", registry);
        Map<String, Object> server = server(now);
        server.put("port", now.server().accepting() ? now.server().port() : null);
        server.put("memoryInUseBytes", now.server().memoryInUseBytes());
        server.put("refusedConnections", now.server().refusedConnections());
        server.put("wire", stats(now.server().wire()));
        out.put("server", server);
        Map<String, Object> client = new LinkedHashMap<>();
        client.put("connections", now.client().connections());
        client.put("pendingCalls", now.client().pendingCalls());
        client.put("wire", stats(now.client().wire()));
        out.put("client", client);
        return out;
    }

    private static Map<String, Object> stats(TransportStats s) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("bytesWritten", s.bytesWritten());
        out.put("bytesRead", s.bytesRead());
        out.put("framesWritten", s.framesWritten());
        out.put("framesRead", s.framesRead());
        out.put("connectionsOpened", s.connectionsOpened());
        return out;
    }

    /** Exported and referenced services, with their methods. */
    Map<String, Object> services() {
        List<Map<String, Object>> exported = new ArrayList<>();
        for (ServiceView v : inspector.services()) {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("service", v.service());
            s.put("address", v.address());
            s.put("online", runtime.exporter(ServiceKey.parse(v.service())).map(Exporter::isOnline).orElse(false));
            s.put("weight", v.weight());
            s.put("warmupMillis", v.warmupMillis());
            s.put("serializations", v.serializations());
            s.put("methods", v.methods());
            exported.add(s);
        }
        List<Map<String, Object>> referenced = new ArrayList<>();
        for (ReferenceView v : inspector.references()) {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("service", v.service());
            s.put("source", v.source());
            s.put("check", v.check());
            List<Map<String, Object>> providers = new ArrayList<>();
            for (ReferenceView.Provider p : v.providers()) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("address", p.address());
                row.put("state", p.state());
                row.put("weight", p.weight());
                row.put("effectiveWeight", p.effectiveWeight());
                row.put("ejected", p.ejected());
                row.put("ejections", p.ejections());
                row.put("unlisted", p.unlisted());
                providers.add(row);
            }
            s.put("providers", providers);
            referenced.add(s);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("exported", exported);
        out.put("referenced", referenced);
        return out;
    }

    /** For every service exported or referenced here: its provider and consumer records in the registry. */
    Map<String, Object> registry() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("registry", runtime.registryConfig() == null ? null : runtime.registryConfig().address());
        List<Map<String, Object>> services = new ArrayList<>();
        if (runtime.registryConfig() != null) {
            TreeSet<String> keys = new TreeSet<>();
            inspector.services().forEach(v -> keys.add(v.service()));
            inspector.references().forEach(v -> keys.add(v.service()));
            for (String key : keys) {
                services.add(registryOf(ServiceKey.parse(key)));
            }
        }
        out.put("services", services);
        return out;
    }

    private Map<String, Object> registryOf(ServiceKey key) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("service", key.toString());
        try {
            List<Map<String, Object>> providers = new ArrayList<>();
            for (ProviderInfo p : inspector.providers(key)) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("address", p.address());
                row.put("application", p.attribute(ProviderInfo.APPLICATION).orElse(null));
                row.put("weight", p.weight());
                row.put("serializations", p.serializationIds().stream().map(ConsoleApi::serializationName).toList());
                row.put("startTime", longOrNull(p.attribute(ProviderInfo.START_TIME).orElse(null)));
                row.put("pid", p.attribute(ProviderInfo.PID).orElse(null));
                row.put("version", p.attribute(ProviderInfo.FRAMEWORK_VERSION).orElse(null));
                row.put("timeoutMillis", p.timeout().map(d -> (Object) d.toMillis()).orElse(null));
                row.put("methods", p.methods());
                row.put("attributes", p.attributes());
                providers.add(row);
            }
            s.put("providers", providers);
        } catch (RuntimeException e) {
            s.put("providersError", e.getMessage());
        }
        try {
            List<Map<String, Object>> consumers = new ArrayList<>();
            for (ConsumerInfo c : inspector.consumers(key)) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("host", c.host());
                row.put("application", c.attribute(ProviderInfo.APPLICATION).orElse(null));
                row.put("startTime", longOrNull(c.attribute(ProviderInfo.START_TIME).orElse(null)));
                row.put("pid", c.attribute(ProviderInfo.PID).orElse(null));
                row.put("attributes", c.attributes());
                consumers.add(row);
            }
            s.put("consumers", consumers);
        } catch (RuntimeException e) {
            s.put("consumersError", e.getMessage());
        }
        return s;
    }

    /** This runtime's connections to providers, and its server's side. */
    Map<String, Object> connections() {
        RuntimeSnapshot now = inspector.snapshot();
        List<Map<String, Object>> client = new ArrayList<>();
        for (ConnectionView c : inspector.connections()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("address", c.address());
            row.put("state", c.state());
            row.put("pendingCalls", c.pendingCalls());
            row.put("openStreams", c.openStreams());
            client.add(row);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("client", client);
        out.put("pendingCalls", now.client().pendingCalls());
        out.put("server", server(now));
        return out;
    }

    /** The server's figures both the overview and the connections page show, in their order. */
    private static Map<String, Object> server(RuntimeSnapshot now) {
        Map<String, Object> server = new LinkedHashMap<>();
        server.put("accepting", now.server().accepting());
        server.put("connections", now.server().connections());
        server.put("inFlightCalls", now.server().inFlightCalls());
        server.put("openStreams", now.server().openStreams());
        server.put("businessThreadsActive", now.pool().active());
        server.put("businessQueue", now.pool().queued());
        return server;
    }

    /** Takes this runtime's provider of the service in {@code body} offline ({@code online=false}) or online. */
    Map<String, Object> setOnline(Map<String, Object> body, boolean online) {
        ServiceKey key = ServiceKey.parse(requiredString(body, "service"));
        Exporter exporter = runtime.exporter(key).orElseThrow(() -> new IllegalArgumentException("this runtime does"
                + " not export " + key + "; it exports " + inspector.services().stream().map(ServiceView::service)
                .toList()));
        boolean changed = online ? exporter.online() : exporter.offline();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("service", key.toString());
        out.put("online", exporter.isOnline());
        out.put("changed", changed);
        return out;
    }

    static String requiredString(Map<String, Object> body, String name) {
        Object v = body.get(name);
        if (!(v instanceof String s) || s.isBlank()) {
            throw new IllegalArgumentException("the request needs a string member '" + name + "'");
        }
        return s;
    }

    private static String serializationName(byte id) {
        try {
            return Serializations.installed().byId(id).name();
        } catch (RuntimeException e) {
            return "id " + id;
        }
    }

    private static Long longOrNull(String s) {
        try {
            return s == null ? null : Long.parseLong(s);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
