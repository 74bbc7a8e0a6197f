package io.kestrel.rpc.core.reliability;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.stream.FeedService;
import io.kestrel.rpc.core.stream.FeedServiceImpl;

/**
 * A provider JVM exporting the streaming {@link FeedService} on a free loopback port (direct mode), for tests that
 * end the provider's process under open streams. Prints {@code READY port=N}, runs until its stdin closes.
 */
public final class FeedProviderMain {
    private FeedProviderMain() {
    }

    public static void main(String[] args) throws Exception {
        RpcRuntime runtime = RpcRuntime.builder().protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build())
                .build();
        runtime.export(ServiceConfig.builder(FeedService.class, new FeedServiceImpl()).build());
        System.out.println("READY port=" + runtime.boundPort());
        System.out.flush();
        while (System.in.read() >= 0) {
            // the test holds our stdin: when it closes, so do we
        }
        runtime.close();
        System.exit(0);
    }
}
