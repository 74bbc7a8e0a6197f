package io.kestrel.rpc.console.internal;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.generic.GenericService;
import io.kestrel.rpc.api.generic.MethodMetadata;
import io.kestrel.rpc.api.generic.ParameterMetadata;
import io.kestrel.rpc.api.generic.ServiceMetadata;
import io.kestrel.rpc.api.interceptor.CallOutcome;
import io.kestrel.rpc.core.ReferenceView;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.ServiceView;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The invoke form's two requests: a service's methods with a JSON skeleton per parameter (from the provider's
 * {@link ServiceMetadata}), and a call through generic invocation ({@link GenericService}), whose provider
 * converts the JSON trees to the declared types (never instantiating classes the request names). One generic
 * reference per service, made on first use: through the registry when the runtime has one, else directly to
 * the address this runtime knows for the service.
 */
final class ConsoleInvoker {
    private final RpcRuntime runtime;
    private final Map<ServiceKey, GenericService> references = new ConcurrentHashMap<>();

    ConsoleInvoker(RpcRuntime runtime) {
        this.runtime = runtime;
    }

    Map<String, Object> methods(String service) {
        ServiceKey key = ServiceKey.parse(service);
        ServiceMetadata md = runtime.registryConfig() != null ? runtime.inspect().metadata(key)
                : runtime.inspect().metadata(key, directAddress(key));
        List<Map<String, Object>> methods = new ArrayList<>();
        for (MethodMetadata m : md.methods()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("name", m.name());
            row.put("signature", m.signature());
            row.put("returnType", m.returnType().name());
            List<Map<String, Object>> params = new ArrayList<>();
            for (ParameterMetadata p : m.parameters()) {
                Map<String, Object> param = new LinkedHashMap<>();
                param.put("name", p.name());
                param.put("type", p.type().className());
                param.put("typeName", p.type().name());
                param.put("kind", p.type().kind().name());
                param.put("skeleton", Skeletons.of(p.type(), md.types()));
                params.add(param);
            }
            row.put("parameters", params);
            methods.add(row);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("service", md.key().toString());
        out.put("provider", md.provider());
        out.put("serializations", md.serializations());
        out.put("methods", methods);
        return out;
    }

    /** Calls the method; the answer says how the call ended (HTTP 200 either way: the console did its job). */
    Map<String, Object> invoke(Map<String, Object> body) {
        ServiceKey key = ServiceKey.parse(ConsoleApi.requiredString(body, "service"));
        String method = ConsoleApi.requiredString(body, "method");
        List<?> types = list(body, "parameterTypes");
        List<?> args = list(body, "arguments");
        String[] typeNames = new String[types.size()];
        for (int i = 0; i < typeNames.length; i++) {
            if (!(types.get(i) instanceof String s)) {
                throw new IllegalArgumentException("parameterTypes[" + i + "] must be a type name string");
            }
            typeNames[i] = s;
        }
        GenericService generic = references.computeIfAbsent(key, this::refer);
        long start = System.nanoTime();
        Map<String, Object> out = new LinkedHashMap<>();
        try {
            Object result = generic.$invoke(method, typeNames, args.toArray());
            out.put("outcome", "ok");
            out.put("elapsedMillis", elapsed(start));
            out.put("result", result);
        } catch (RuntimeException e) {
            Throwable t = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            out.put("outcome", t instanceof IllegalArgumentException ? "bad_request" : CallOutcome.of(t).tag());
            out.put("elapsedMillis", elapsed(start));
            out.put("exception", t.getClass().getName());
            out.put("message", t.getMessage());
        }
        return out;
    }

    private GenericService refer(ServiceKey key) {
        ReferenceConfig.Builder<GenericService> b = ReferenceConfig.generic(key.interfaceName()).check(false);
        if (!key.version().isEmpty()) {
            b.version(key.version());
        }
        if (!key.group().isEmpty()) {
            b.group(key.group());
        }
        if (runtime.registryConfig() == null) {
            b.url(directAddress(key));
        }
        return runtime.refer(b.build());
    }

    /** Where this runtime, without a registry, reaches the service: a reference's provider, or its own export. */
    private String directAddress(ServiceKey key) {
        for (ReferenceView v : runtime.inspect().references()) {
            if (v.service().equals(key.toString()) && !v.providers().isEmpty()) {
                return v.providers().get(0).address();
            }
        }
        for (ServiceView v : runtime.inspect().services()) {
            if (v.service().equals(key.toString())) {
                return v.address();
            }
        }
        throw new IllegalArgumentException("this runtime has no registry and neither refers nor exports " + key
                + ", so the console does not know where to call it");
    }

    private static List<?> list(Map<String, Object> body, String name) {
        Object v = body.get(name);
        if (v == null) {
            return List.of();
        }
        if (!(v instanceof List<?> l)) {
            throw new IllegalArgumentException("the request member '" + name + "' must be a JSON array");
        }
        return l;
    }

    private static double elapsed(long startNanos) {
        return Math.round((System.nanoTime() - startNanos) / 10_000.0) / 100.0;
    }

}
