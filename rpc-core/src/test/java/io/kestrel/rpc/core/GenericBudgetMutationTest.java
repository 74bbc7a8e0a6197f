package io.kestrel.rpc.core;

import static io.kestrel.rpc.core.fixture.SharedReferences.bomb;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.api.serialization.SerializerIds;
import io.kestrel.rpc.core.fixture.orders.OrderService;
import io.kestrel.rpc.core.fixture.orders.OrderServiceImpl;
import io.kestrel.rpc.core.internal.generic.GenericLimits;
import io.kestrel.rpc.core.internal.generic.GenericMethod;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Mutation check for the generic node budget ({@code -Dkestrel.rpc.generic.maxNodes}): the shared-reference list
 * {@code L_k = [L_{k-1}, L_{k-1}]} at depth 40 (a few hundred bytes, 3 x 2^40 nodes to a walk that follows every
 * path) sent as a {@code $invoke} argument over a raw socket. With the default budget it is refused after exactly
 * that many nodes, long before the caller's deadline; with the budget out of reach the same call walks on, far past
 * the default's count, until only the deadline stops it. So the budget is what stops the attack (the deadline
 * alone would hold the business thread for the whole timeout, and not at all for a caller sending none).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GenericBudgetMutationTest {
    private static final int DEADLINE_MILLIS = 1500;

    @Test
    void theNodeBudgetIsWhatStopsTheSharedReferenceWalk() throws Exception {
        RawClient.Response bounded;
        long boundedMillis;
        try (RpcRuntime provider = provider(null)) {
            long start = System.nanoTime();
            bounded = send(provider);
            boundedMillis = (System.nanoTime() - start) / 1_000_000;
        }
        assertEquals(40, bounded.status(), "default budget: " + bounded.message());
        assertTrue(bounded.message().contains("more than " + GenericLimits.DEFAULT_MAX_NODES + " nodes"),
                bounded.message());

        RawClient.Response unbounded;
        long unboundedMillis;
        try (RpcRuntime provider = provider(Long.toString(Long.MAX_VALUE))) {
            long start = System.nanoTime();
            unbounded = send(provider);
            unboundedMillis = (System.nanoTime() - start) / 1_000_000;
        }
        assertEquals(31, unbounded.status(), "budget out of reach: stopped by the deadline only: "
                + unbounded.message());
        long nodes = Long.parseLong(unbounded.message().replaceAll(".*, after (\\d+) nodes.*", "$1"));
        assertTrue(nodes > GenericLimits.DEFAULT_MAX_NODES, "walked past the default budget: " + nodes);
        assertTrue(unboundedMillis >= DEADLINE_MILLIS - 100, "held until the deadline: " + unboundedMillis + " ms");
        System.out.printf("generic node budget: default refused in %d ms after %d nodes; out of reach walked %d nodes"
                + " in %d ms until the deadline%n", boundedMillis, GenericLimits.DEFAULT_MAX_NODES, nodes, unboundedMillis);
    }

    /** A fory provider of the orders service; {@code maxNodes} non-null is set while the service is exported. */
    private static RpcRuntime provider(String maxNodes) {
        if (maxNodes != null) {
            System.setProperty(GenericLimits.MAX_NODES_PROPERTY, maxNodes);
        }
        try {
            RpcRuntime provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().serialization("fory").build())
                    .loadInterceptors(false).build();
            provider.export(ServiceConfig.builder(OrderService.class, new OrderServiceImpl()).build());
            return provider;
        } finally {
            System.clearProperty(GenericLimits.MAX_NODES_PROPERTY);
        }
    }

    private static RawClient.Response send(RpcRuntime provider) throws Exception {
        Serializer attacker = TestRuntimes.serializer("fory", ClassAllowlist.withDefaults());
        byte[] frame = RawClient.requestFrame(1, SerializerIds.FORY, 1, GenericMethod.descriptor(
                ServiceKey.of(OrderService.class)), DEADLINE_MILLIS, RawClient.genericArguments(attacker, "echo",
                new String[] {"java.lang.Object"}, new Object[] {bomb(40)}));
        try (RawClient raw = new RawClient(provider.boundPort())) {
            raw.writeRaw(frame);
            return raw.read();
        }
    }
}
