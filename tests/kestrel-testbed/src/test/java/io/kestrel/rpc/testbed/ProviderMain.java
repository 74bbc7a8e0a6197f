package io.kestrel.rpc.testbed;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;

/**
 * A provider host of the bed. Args: name, bind host ("-": the protocol's default), port, ZooKeeper connect
 * string, session timeout ms, calls file. Warms its call path up on loopback, then exports {@link CountingService}; every call appends its id to the
 * calls file (one write per call, before the answer, so a kill -9 loses none that ran). SIGTERM closes the
 * runtime (unregister, drain, stop) from a shutdown hook and prints {@code CLOSED ms=N}.
 */
public final class ProviderMain {
    private static final int WARM_UP_CALLS = 500;

    private ProviderMain() {
    }

    public static void main(String[] args) throws Exception {
        String name = args[0];
        ProtocolConfig.Builder protocol = ProtocolConfig.builder().port(Integer.parseInt(args[2]))
                .shutdownTimeout(Duration.ofSeconds(2));
        if (!args[1].equals("-")) {
            protocol.host(args[1]);
        }
        warmUp(name);
        FileChannel calls = FileChannel.open(Path.of(args[5]), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
        RpcRuntime runtime = RpcRuntime.builder().protocol(protocol.build())
                .registry(RegistryConfig.builder().address("zookeeper://" + args[3])
                        .sessionTimeout(Duration.ofMillis(Long.parseLong(args[4])))
                        .connectionTimeout(Duration.ofSeconds(15)).build())
                .build();
        CountingService service = callId -> {
            byte[] line = (callId + "\n").getBytes(StandardCharsets.UTF_8);
            try {
                synchronized (calls) {
                    calls.write(ByteBuffer.wrap(line));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return name;
        };
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            long start = System.nanoTime();
            runtime.close();
            System.out.println("CLOSED ms=" + (System.nanoTime() - start) / 1_000_000);
            System.out.flush();
        }, "provider-close"));
        runtime.export(ServiceConfig.builder(CountingService.class, service).build());
        System.out.println("READY " + name + " port=" + runtime.boundPort());
        System.out.flush();
        Thread.currentThread().join(); // until the watchdog or a signal ends the JVM
    }

    /**
     * Runs the call path (serializer code generation, the business pool, both ends of a connection) through a
     * private loopback runtime before registering, as a service warms up before it takes traffic: otherwise a
     * new JVM's first calls can outlast the consumer's timeout on a busy machine.
     */
    private static void warmUp(String name) {
        try (RpcRuntime local = RpcRuntime.builder().protocol(ProtocolConfig.builder().port(0).build()).build()) {
            local.export(ServiceConfig.builder(CountingService.class, (CountingService) id -> name).build());
            CountingService self = local.refer(ReferenceConfig.builder(CountingService.class)
                    .url("127.0.0.1:" + local.boundPort()).timeout(Duration.ofSeconds(30)).build());
            for (int i = 0; i < WARM_UP_CALLS; i++) {
                self.call("warm-up-" + i);
            }
        }
    }
}
