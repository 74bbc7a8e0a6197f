package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code threads="virtual"}: on JDK 21+ each call runs on a virtual thread; on an older JDK the server says at
 * startup that it cannot and runs calls on its platform business threads. The build runs this on JDK 17 (the
 * fallback); run it with JAVA_HOME of a JDK 21+ for the virtual path.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class VirtualThreadsTest {

    /** Tells which thread ran the call. */
    public interface ThreadService {
        String thread();
    }

    @Test
    void callsRunOnVirtualThreadsWhenTheJdkHasThem() {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        String thread;
        try (RpcRuntime provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().virtualThreads(true).build())
                .build();
             RpcRuntime consumer = RpcRuntime.builder().build()) {
            provider.export(ServiceConfig.builder(ThreadService.class, () -> Thread.currentThread().toString()).build());
            thread = consumer.refer(ReferenceConfig.builder(ThreadService.class)
                    .url("127.0.0.1:" + provider.boundPort()).build()).thread();
        } finally {
            System.setErr(original);
        }
        String log = captured.toString(StandardCharsets.UTF_8);
        original.print(log);
        if (Runtime.version().feature() >= 21) {
            assertTrue(thread.startsWith("VirtualThread[") && thread.contains("kestrel-server-virtual-"), thread);
            assertTrue(!log.contains("needs JDK 21"), log);
        } else {
            assertTrue(thread.contains("kestrel-server-biz"), "platform business thread: " + thread);
            assertTrue(log.contains("threads=\"virtual\" needs JDK 21 or later and this JVM is "
                    + Runtime.version() + ": service methods run on 200 platform business threads"), log);
        }
    }
}
