package io.kestrel.rpc.core.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.NoProviderException;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.fixture.shop.Order;
import io.kestrel.rpc.core.fixture.shop.OrderService;
import io.kestrel.rpc.core.fixture.shop.ShopOptimizerReordered;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 12, trap 1 across two JVMs: the provider JVM ({@link ShopProviderMain}) sets kryo and its
 * optimizer on its protocol only; this JVM's consumer has a plain reference and calls with nested DTOs
 * through a real ZooKeeper (curator-test). A consumer insisting on another optimizer order fails at
 * refer, naming the difference.
 */
@Timeout(90)
class DubboWayTwoJvmTest {
    @Test
    void aPlainReferenceInAnotherJvmUsesTheProvidersSerializationAndOptimizer() throws Exception {
        try (TestingServer zk = new TestingServer(true);
                ChildJvm provider = ChildJvm.start("shop-provider", ShopProviderMain.class, zk.getConnectString())) {
            provider.awaitLine("READY port=(\\d+)", 30_000);
            try (RpcRuntime consumer = RpcRuntime.builder()
                    .registry(RegistryConfig.builder().address("zookeeper://" + zk.getConnectString()).build()).build()) {
                OrderService orders = consumer.refer(ReferenceConfig.builder(OrderService.class).build());
                assertEquals(Order.sample().withId("order-12"), orders.place(Order.sample()));

                NoProviderException e = assertThrows(NoProviderException.class, () -> consumer.refer(
                        ReferenceConfig.builder(OrderService.class).optimizer(ShopOptimizerReordered.class).build()));
                assertTrue(e.getMessage().contains("first difference at position 2"), e.getMessage());
            }
        }
    }
}
