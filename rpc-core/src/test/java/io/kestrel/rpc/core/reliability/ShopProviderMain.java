package io.kestrel.rpc.core.reliability;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.fixture.shop.OrderService;
import io.kestrel.rpc.core.fixture.shop.OrderServiceImpl;
import io.kestrel.rpc.core.fixture.shop.ShopOptimizer;
import java.time.Duration;

/**
 * A provider JVM configured the Dubbo way: kryo and {@link ShopOptimizer} on its protocol only,
 * {@link OrderService} exported to the ZooKeeper at {@code args[0]} (host:port). Prints
 * {@code READY port=N} and runs until its stdin closes.
 */
public final class ShopProviderMain {
    private ShopProviderMain() {
    }

    public static void main(String[] args) throws Exception {
        RpcRuntime runtime = RpcRuntime.builder()
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).serialization("kryo")
                        .optimizer(ShopOptimizer.class).shutdownTimeout(Duration.ofSeconds(1)).build())
                .registry(RegistryConfig.builder().address("zookeeper://" + args[0]).build())
                .build();
        runtime.export(ServiceConfig.builder(OrderService.class, new OrderServiceImpl()).build());
        System.out.println("READY port=" + runtime.boundPort());
        System.out.flush();
        while (System.in.read() >= 0) {
            // the test holds our stdin: when it closes, so do we
        }
        runtime.close();
        System.exit(0);
    }
}
