package io.kestrel.rpc.core.reliability;

import io.kestrel.rpc.api.config.ApplicationConfig;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.core.fixture.EchoServiceImpl;
import java.time.Duration;

/**
 * A provider JVM on the embedded registry: {@code EmbeddedRegistryMain <version> <zookeeper port>} exports
 * {@link EchoService} with that version (application "child-&lt;version&gt;") on a free port, registered in
 * {@code embedded://<port>}, prints {@code READY}, and runs until its stdin closes.
 */
public final class EmbeddedRegistryMain {
    private EmbeddedRegistryMain() {
    }

    public static void main(String[] args) throws Exception {
        String version = args[0];
        RpcRuntime runtime = RpcRuntime.builder()
                .application(new ApplicationConfig("child-" + version))
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).shutdownTimeout(Duration.ofSeconds(1))
                        .build())
                .registry(RegistryConfig.builder().address("embedded://" + args[1]).build())
                .build();
        runtime.export(ServiceConfig.builder(EchoService.class, new EchoServiceImpl()).version(version).build());
        System.out.println("READY");
        System.out.flush();
        while (System.in.read() >= 0) {
            // the test holds our stdin: when it closes (the test ended or died), so do we
        }
        runtime.close();
        System.exit(0);
    }
}
