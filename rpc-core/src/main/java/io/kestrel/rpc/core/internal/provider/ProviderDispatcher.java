package io.kestrel.rpc.core.internal.provider;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.ServiceNotFoundException;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import io.kestrel.rpc.api.internal.NearestName;
import io.kestrel.rpc.api.security.CallerIdentity;
import io.kestrel.rpc.api.serialization.Serialization;
import io.kestrel.rpc.api.serialization.SerializationOptimizer;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.core.internal.generic.GenericLimits;
import io.kestrel.rpc.core.internal.generic.GenericMethod;
import io.kestrel.rpc.core.internal.generic.MetadataDescriber;
import io.kestrel.rpc.core.internal.generic.MetadataMethod;
import io.kestrel.rpc.core.internal.generic.ReservedMethod;
import io.kestrel.rpc.core.internal.shared.RemoteMethods;
import io.kestrel.rpc.core.internal.shared.SerializerCache;
import io.kestrel.rpc.core.internal.shared.SignatureCheck;
import io.kestrel.rpc.transport.spi.MethodRef;
import io.kestrel.rpc.transport.spi.ServerDispatcher;
import io.kestrel.rpc.transport.spi.ServerMethod;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The provider's table of exported methods, looked up by descriptor. Thread-safe. */
final class ProviderDispatcher implements ServerDispatcher {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ProviderDispatcher.class);
    private final Map<String, ServerMethod> methods = new ConcurrentHashMap<>();
    private final Map<ServiceKey, List<String>> services = new ConcurrentHashMap<>();
    private final Map<String, Map<String, String>> facts = new ConcurrentHashMap<>();
    private final Map<String, ServiceAccess> access = new ConcurrentHashMap<>();
    private final SerializerCache serializers;
    private final ServiceSerializers accepting;
    private final String protocolSerialization;
    private final boolean disclose;
    /** Services exported with {@code generic="false"}: their reserved methods are answered "switched off". */
    private final Set<ServiceKey> withoutGeneric = ConcurrentHashMap.newKeySet();

    /**
     * @param disclose whether "not found" answers list what is exported (they go to any caller), and a
     *     handshake that names no service is told every service its caller may call
     */
    public ProviderDispatcher(SerializerCache serializers, Class<? extends SerializationOptimizer> optimizer,
            boolean compatible, String protocolSerialization, boolean disclose) {
        this.disclose = disclose;
        this.serializers = serializers;
        this.accepting = new ServiceSerializers(serializers, optimizer, compatible, protocolSerialization);
        this.protocolSerialization = protocolSerialization;
    }

    /** Adds a service's methods without interceptors; returns the wire ids of the serializations it accepts. */
    public List<Byte> add(ServiceConfig<?> config) {
        return add(config, List.of());
    }

    /**
     * Adds a service's methods; returns the wire ids of the serializations it accepts.
     *
     * @param interceptors the service's interceptors in chain order; empty for none (its methods are
     *     then invoked directly)
     */
    public List<Byte> add(ServiceConfig<?> config, List<ServerInterceptor> interceptors) {
        ServiceKey key = config.key();
        if (services.containsKey(key)) {
            throw new IllegalStateException("service " + key + " is already exported by this runtime");
        }
        Set<Byte> accepted = accepting.acceptedIds(config);
        for (byte id : accepted) {
            Serialization s = Serializations.installed().byId(id);
            SignatureCheck.check(config.interfaceClass(), s, "export",
                    "serialization on the service, or on the protocol when the service sets none");
            if (!s.boundsDecodeWork()) {
                log.warn("Service {} accepts {}, whose reader cannot bound its decoding work: a caller can send a"
                        + " small value that keeps a business thread busy for minutes (nested hash sets, 'SerialDOS')."
                        + " Accept it only from trusted callers, or choose fory, kryo, fst or hessian2", key, s.name());
            }
        }
        List<String> descriptors = new ArrayList<>();
        ServiceAccess access = ServiceAccess.of(config);
        this.access.put(key.toString(), access);
        List<GenericMethod.Target> targets = new ArrayList<>();
        for (Method m : RemoteMethods.of(config.interfaceClass())) {
            String d = MethodRef.descriptor(key, m);
            ExportedMethod exported = new ExportedMethod(key, config.ref(), m, accepting, accepted,
                    interceptors.isEmpty() ? null : interceptors.toArray(new ServerInterceptor[0]), access,
                    DispatchRule.runsOnIoThread(config.dispatch(), config.interfaceClass(), m));
            methods.put(d, exported);
            targets.add(new GenericMethod.Target(m, exported));
            descriptors.add(d);
        }
        services.put(key, descriptors);
        addReserved(config, accepted, access, targets);
        return List.copyOf(accepted);
    }

    /**
     * The service's generic entry ({@code $invoke}) and its description ({@code $metadata}), under the same gate,
     * unless the service switched them off.
     */
    private void addReserved(ServiceConfig<?> config, Set<Byte> accepted, ServiceAccess access,
            List<GenericMethod.Target> targets) {
        ServiceKey key = config.key();
        if (!config.generic()) {
            withoutGeneric.add(key);
            return;
        }
        ReservedMethod.ServiceGate gate = new ReservedMethod.ServiceGate() {
            @Override
            public Serializer serializer(String displayName, byte id) {
                return accepting.serializerFor(displayName, accepted, id);
            }

            @Override
            public void admit(CallerIdentity caller, String anonymousBecause) {
                access.admit(caller, anonymousBecause);
            }
        };
        List<String> names = new ArrayList<>();
        if (config.serializations().isEmpty()) {
            names.add(protocolSerialization);
        } else {
            names.addAll(config.serializations());
        }
        methods.put(GenericMethod.descriptor(key), new GenericMethod(key, targets, serializers.allowlist(), gate,
                GenericLimits.fromSystemProperties()));
        try {
            methods.put(MetadataMethod.descriptor(key), new MetadataMethod(key, MetadataDescriber.describe(key,
                    targets.stream().map(GenericMethod.Target::method).toList(), names), gate));
        } catch (RuntimeException e) {
            // describing is a convenience: a type it cannot read must not stop the export (callers then get "not found")
            log.warn("Service {} is exported without metadata: describing its signatures failed: {}", key, e.toString());
        }
    }

    /** Names of the methods a service interface offers remotely, sorted, without duplicates (overloads). */
    public static List<String> remoteMethodNames(Class<?> serviceInterface) {
        return RemoteMethods.of(serviceInterface).stream().map(Method::getName).distinct().sorted().toList();
    }

    /** Sets what consumers of an exported service must agree on, told in the handshake to those who may call it. */
    void describe(ServiceKey key, Map<String, String> attributes) {
        facts.put(key.toString(), Map.copyOf(attributes));
    }

    /**
     * The facts of the services asked for that exist and that {@code caller} may call; when nothing is
     * asked, those of every service the caller may call if this provider discloses its services, else
     * nothing. A service the caller may not call reads exactly like one that is not exported.
     */
    @Override
    public Map<String, Map<String, String>> handshake(Set<String> asked, CallerIdentity caller) {
        Map<String, Map<String, String>> told = new LinkedHashMap<>();
        for (String key : asked.isEmpty() && disclose ? facts.keySet() : asked) {
            Map<String, String> attributes = facts.get(key);
            ServiceAccess gate = access.get(key);
            if (attributes != null && gate != null && gate.admits(caller)) {
                told.put(key, attributes);
            }
        }
        return told;
    }

    public void remove(ServiceKey key) {
        facts.remove(key.toString());
        access.remove(key.toString());
        withoutGeneric.remove(key);
        List<String> descriptors = services.remove(key);
        if (descriptors != null) {
            descriptors.forEach(methods::remove);
            methods.remove(GenericMethod.descriptor(key));
            methods.remove(MetadataMethod.descriptor(key));
        }
    }

    @Override
    public ServerMethod resolve(String descriptor) {
        ServerMethod m = methods.get(descriptor);
        if (m != null) {
            return m;
        }
        int hash = descriptor.indexOf('#');
        String service = hash < 0 ? descriptor : descriptor.substring(0, hash);
        List<String> same = services.entrySet().stream().filter(e -> e.getKey().toString().equals(service))
                .findFirst().map(Map.Entry::getValue).orElse(null);
        if (same == null) {
            List<String> exported = services.keySet().stream().map(ServiceKey::toString).sorted().toList();
            throw new ServiceNotFoundException("service " + service + " is not exported by this provider"
                    + (disclose ? "; exported: " + exported + NearestName.suggestion(service, exported) : "")
                    + ". Check the interface name, version and group on both sides");
        }
        String reserved = descriptor.substring(hash + 1);
        if ((reserved.equals(GenericMethod.SIGNATURE) || reserved.equals(MetadataMethod.SIGNATURE))
                && withoutGeneric.stream().anyMatch(k -> k.toString().equals(service))) {
            throw new ServiceNotFoundException("service " + service + " does not answer generic calls ($invoke) or"
                    + " metadata requests ($metadata): its provider exported it with generic=\"false\". Call it"
                    + " through its interface, or have the provider switch generic invocation on");
        }
        List<String> signatures = same.stream().map(d -> d.substring(d.indexOf('#') + 1)).toList();
        throw new ServiceNotFoundException("method " + descriptor + " is not exported" + (disclose ? "; service "
                + service + " has: " + String.join(", ", signatures) + NearestName.suggestion(
                methodName(descriptor), signatures.stream().map(ProviderDispatcher::methodName).distinct().toList())
                : " by service " + service)
                + ". Are consumer and provider built from the same interface version?");
    }

    @Override
    public ServerMethod resolveInAnyGroup(String descriptor) {
        for (Map.Entry<String, ServerMethod> e : methods.entrySet()) {
            String d = e.getKey();
            int slash = d.indexOf('/');
            if (slash >= 0 && slash < d.indexOf('#') && d.regionMatches(slash + 1, descriptor, 0, descriptor.length())
                    && d.length() - slash - 1 == descriptor.length()) {
                return e.getValue();
            }
        }
        return null;
    }

    /** "remove" of "...#remove(long)" or of "remove(long)". */
    private static String methodName(String descriptor) {
        int hash = descriptor.indexOf('#');
        int paren = descriptor.indexOf('(', hash + 1);
        return descriptor.substring(hash + 1, paren < 0 ? descriptor.length() : paren);
    }

}
