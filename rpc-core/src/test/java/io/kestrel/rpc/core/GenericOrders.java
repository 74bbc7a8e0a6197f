package io.kestrel.rpc.core;

import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.generic.GenericService;
import io.kestrel.rpc.core.fixture.orders.OrderService;
import io.kestrel.rpc.core.fixture.orders.OrderServiceImpl;
import java.time.Duration;

/**
 * The generic-invocation tests' set-up: a provider exporting {@link OrderService} on loopback (fory, no interceptors)
 * and a consumer whose generic reference calls it directly.
 */
final class GenericOrders implements AutoCloseable {
    final RpcRuntime provider;
    final RpcRuntime consumer;
    final GenericService orders;

    /** @param timeout the generic reference's timeout */
    GenericOrders(Duration timeout) {
        provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().serialization("fory").build())
                .loadInterceptors(false).build();
        provider.export(ServiceConfig.builder(OrderService.class, new OrderServiceImpl()).build());
        consumer = RpcRuntime.builder().loadInterceptors(false).build();
        orders = consumer.refer(ReferenceConfig.generic(OrderService.class.getName())
                .url("127.0.0.1:" + provider.boundPort()).timeout(timeout).build());
    }

    @Override
    public void close() {
        consumer.close();
        provider.close();
    }
}
