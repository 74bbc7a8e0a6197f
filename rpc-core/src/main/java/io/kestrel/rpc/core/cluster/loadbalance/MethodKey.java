package io.kestrel.rpc.core.cluster.loadbalance;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.cluster.Invocation;

/** Service and method name: the scope of per-method load-balancer state. Overloads share one. */
record MethodKey(ServiceKey service, String method) {
    private static final MethodKey UNKNOWN = new MethodKey(null, "");

    static MethodKey of(Invocation invocation) {
        return invocation == null ? UNKNOWN : new MethodKey(invocation.service(), invocation.methodName());
    }
}
