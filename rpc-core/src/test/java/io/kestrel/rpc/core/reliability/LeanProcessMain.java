package io.kestrel.rpc.core.reliability;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.core.fixture.EchoServiceImpl;
import java.time.Duration;

/**
 * A process started without kryo and without rpc-registry-embedded on its class path:
 * {@code LeanProcessMain <ZooKeeper host:port> <free port> <dead port>}. It joins that ZooKeeper and exports
 * {@link EchoService} there (prints {@code READY}), then prints, one line each, what creating a kryo serializer
 * says ({@code KRYO: ...}), what using an embedded registry on a free port says ({@code HOST: ...}), what a ZooKeeper that is not there says ({@code DEAD: ...}) and what referring to the
 * {@code kryo} version of the echo service (whose provider prefers kryo) says ({@code REFER: ...}); runs until
 * stdin closes.
 */
public final class LeanProcessMain {
    private LeanProcessMain() {
    }

    public static void main(String[] args) throws Exception {
        RpcRuntime runtime = RpcRuntime.builder()
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).shutdownTimeout(Duration.ofSeconds(1))
                        .build())
                .registry(RegistryConfig.builder().address("zookeeper://" + args[0]).build())
                .build();
        runtime.export(ServiceConfig.builder(EchoService.class, new EchoServiceImpl()).version("lean").build());
        System.out.println("READY");
        System.out.println("KRYO: " + failure(() -> Serializations.installed().byName("kryo")
                .create(SerializationOptions.builder().build())));
        System.out.println("HOST: " + failure(() -> RpcRuntime.builder()
                .registry(RegistryConfig.builder().address("embedded://" + args[1]).build()).build()
                .inspect().providers(new io.kestrel.rpc.api.ServiceKey("x.Y", "", ""))));
        System.out.println("DEAD: " + failure(() -> RpcRuntime.builder()
                .registry(RegistryConfig.builder().address("zookeeper://127.0.0.1:" + args[2])
                        .connectionTimeout(Duration.ofSeconds(2)).build()).build()
                .inspect().providers(new io.kestrel.rpc.api.ServiceKey("x.Y", "", ""))));
        System.out.println("REFER: " + failure(() -> runtime.refer(ReferenceConfig.builder(EchoService.class)
                .version("kryo").timeout(Duration.ofSeconds(5)).build())).replace('\n', ' '));
        System.out.flush();
        while (System.in.read() >= 0) {
            // runs until the test closes our stdin
        }
        runtime.close();
        System.exit(0);
    }

    private static String failure(Runnable r) {
        try {
            r.run();
            return "no failure";
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }
}
