package io.kestrel.rpc.api.generic;

import io.kestrel.rpc.api.ServiceKey;
import java.util.List;
import java.util.Map;

/**
 * What a provider says about one exported service, answered to a metadata request: enough to list its
 * methods and to build an input form for each (see {@link TypeInfo} and {@link TypeDetails}).
 *
 * @param interfaceName the service interface's class name
 * @param version the service version, "" when none
 * @param group the service group, "" when none
 * @param provider the "host:port" of the provider that answered
 * @param serializations the names of the serializations the service accepts (the first is the one it prefers)
 * @param methods its remote methods, sorted by name then parameter count
 * @param types every bean, record and enum its signatures reach (recursively), by class name
 */
public record ServiceMetadata(String interfaceName, String version, String group, String provider,
        List<String> serializations, List<MethodMetadata> methods, Map<String, TypeDetails> types) {
    public ServiceMetadata {
        serializations = List.copyOf(serializations);
        methods = List.copyOf(methods);
        types = Map.copyOf(types);
    }

    /** The service's key. */
    public ServiceKey key() {
        return new ServiceKey(interfaceName, version, group);
    }

    /** The methods with this name (overloads), in {@link #methods()} order. */
    public List<MethodMetadata> methods(String name) {
        return methods.stream().filter(m -> m.name().equals(name)).toList();
    }
}
