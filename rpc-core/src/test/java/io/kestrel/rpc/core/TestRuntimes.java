package io.kestrel.rpc.core;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.core.fixture.EchoServiceImpl;
import java.time.Duration;
import java.util.List;

/** Provider and consumer runtimes on loopback, for tests. */
public final class TestRuntimes {
    public static final List<String> SERIALIZATIONS = List.of("kryo", "fst", "hessian2", "fastjson2", "java");

    private TestRuntimes() {
    }

    public static ProtocolConfig.Builder loopback() {
        return ProtocolConfig.builder().host("127.0.0.1").port(0).shutdownTimeout(Duration.ofSeconds(2));
    }

    /**
     * A provider exporting {@link EchoServiceImpl} on a free loopback port, accepting every built-in
     * serialization (fastjson2 is not accepted by default, so it is listed explicitly).
     */
    public static RpcRuntime echoProvider(ProtocolConfig config) {
        RpcRuntime provider = RpcRuntime.builder().protocol(config).build();
        ServiceConfig.Builder<EchoService> service = ServiceConfig.builder(EchoService.class, new EchoServiceImpl());
        for (String name : List.of("kryo", "fst", "hessian2", "fastjson2", "java", "fory")) {
            service.serialization(name);
        }
        provider.export(service.build());
        return provider;
    }

    public static ReferenceConfig.Builder<EchoService> echoReference(RpcRuntime provider, String serialization) {
        return ReferenceConfig.builder(EchoService.class).url("127.0.0.1:" + provider.boundPort())
                .serialization(serialization).timeout(Duration.ofSeconds(5));
    }
}
