package io.kestrel.rpc.api.cluster;

import io.kestrel.rpc.api.ServiceKey;
import java.lang.reflect.Method;
import java.util.Map;

/**
 * One call as the cluster layer sees it: service, method, arguments and attachments. Arguments are
 * the caller's own objects: read them, do not change them.
 */
public record Invocation(ServiceKey service, Method method, Object[] arguments, Map<String, String> attachments) {
    public String methodName() {
        return method.getName();
    }
}
