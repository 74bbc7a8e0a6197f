package io.kestrel.rpc.core.reliability;

import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.fixture.EchoService;
import java.lang.management.ManagementFactory;
import java.time.Duration;

/**
 * A consumer JVM for tests: refers to the echo service at {@code args[0]} ("host:port", kryo),
 * makes one call, prints {@code FIRST_CALL ms=M referMs=R} (M: JVM start to the first call's
 * return; R: JVM start to the reference being ready) and exits.
 */
public final class EchoConsumerMain {
    private EchoConsumerMain() {
    }

    public static void main(String[] args) {
        long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
        int status = 0;
        RpcRuntime runtime = RpcRuntime.builder().build();
        try {
            EchoService echo = runtime.refer(ReferenceConfig.builder(EchoService.class).url(args[0])
                    .serialization("kryo").timeout(Duration.ofSeconds(10)).build());
            long referMs = System.currentTimeMillis() - jvmStart;
            String answer = echo.echo("first");
            long firstCallMs = System.currentTimeMillis() - jvmStart;
            if (!"first".equals(answer)) {
                System.out.println("WRONG answer " + answer);
                status = 2;
            } else {
                System.out.println("FIRST_CALL ms=" + firstCallMs + " referMs=" + referMs);
            }
        } catch (RuntimeException e) {
            System.out.println("FAILED " + e);
            status = 1;
        } finally {
            runtime.close();
        }
        System.out.flush();
        System.exit(status);
    }
}
