package io.kestrel.rpc.core.reliability;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.core.fixture.EchoServiceImpl;
import java.lang.management.ManagementFactory;
import java.time.Duration;

/**
 * A provider JVM for tests: exports {@link EchoServiceImpl} on a free loopback port (direct mode,
 * kryo by default), prints {@code READY port=N startupMs=M} (M: JVM start to ready), and runs until
 * its stdin closes.
 */
public final class EchoProviderMain {
    private EchoProviderMain() {
    }

    public static void main(String[] args) throws Exception {
        RpcRuntime runtime = RpcRuntime.builder().protocol(ProtocolConfig.builder().host("127.0.0.1").port(0)
                .serialization(args.length > 0 ? args[0] : "kryo").shutdownTimeout(Duration.ofSeconds(1)).build()).build();
        runtime.export(ServiceConfig.builder(EchoService.class, new EchoServiceImpl()).build());
        long startupMs = System.currentTimeMillis() - ManagementFactory.getRuntimeMXBean().getStartTime();
        System.out.println("READY port=" + runtime.boundPort() + " startupMs=" + startupMs);
        System.out.flush();
        // the test holds our stdin: when it closes (the test ended or died), so do we
        while (System.in.read() >= 0) {
            // ignore input
        }
        runtime.close();
        System.exit(0);
    }
}
