package io.kestrel.rpc.core.cluster.loadbalance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

class LoadBalancesTest {

    @Test
    void builtInsAreFoundByName() {
        assertInstanceOf(RandomLoadBalance.class, LoadBalances.byName("random"));
        assertInstanceOf(RoundRobinLoadBalance.class, LoadBalances.byName("roundrobin"));
        assertInstanceOf(LeastActiveLoadBalance.class, LoadBalances.byName("leastactive"));
        assertInstanceOf(ConsistentHashLoadBalance.class, LoadBalances.byName(" ConsistentHash "));
        assertNotSame(LoadBalances.byName("roundrobin"), LoadBalances.byName("roundrobin"), "fresh state per lookup");
        assertTrue(LoadBalances.names().containsAll(Set.of("random", "roundrobin", "leastactive", "consistenthash")));
    }

    @Test
    void unknownNameListsTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LoadBalances.byName("round-robin"));
        assertTrue(e.getMessage().startsWith("Unknown load balancer 'round-robin'; known: [consistenthash, "
                + "leastactive, random, roundrobin]"), e.getMessage());
        assertEquals(4, LoadBalances.names().size());
    }
}
