package io.kestrel.rpc.core.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.ApplicationConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.registry.ConsumerInfo;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.testing.Await;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Trap 2 of issue 12, as a user meets it: a provider and a consumer in separate JVMs, both left on the default
 * {@code embedded} registry. The first JVM hosts ZooKeeper on the shared port, the others join it; when the
 * hosting JVM is killed, a survivor takes over the port, providers register again and consumers see them again.
 * The registry records say who is who (application, pid, start time, version), consumers are recorded beside
 * providers, and the embedded ZooKeeper logs one line, not its banner.
 */
@Timeout(120)
class EmbeddedRegistryAcrossJvmsTest {
    private static final List<String> INFO = List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=info");

    @Test
    void providerAndConsumerInSeparateJvmsShareTheEmbeddedRegistryAndSurviveTheHostDying() throws Exception {
        int port = freePort();
        String zk = "127.0.0.1:" + port;
        ServiceKey keyA = new ServiceKey(EchoService.class.getName(), "a", "");
        ServiceKey keyB = new ServiceKey(EchoService.class.getName(), "b", "");
        RegistryConfig registry = RegistryConfig.builder().address("embedded://" + port).build();
        try (ChildJvm a = ChildJvm.start("host-a", INFO, EmbeddedRegistryMain.class, "a", String.valueOf(port))) {
            a.awaitLine("^READY$", 60_000);
            try (ChildJvm b = ChildJvm.start("joiner-b", INFO, EmbeddedRegistryMain.class, "b", String.valueOf(port))) {
                b.awaitLine("^READY$", 60_000);
                String hostLog = a.output();
                assertTrue(hostLog.contains("Embedded ZooKeeper hosted by this process on " + zk + "; processes on "
                        + "this host join it with the registry address 'embedded' (or embedded://" + port + "); a "
                        + "process on another host needs a real ZooKeeper (zookeeper://host:port)"), hostLog);
                assertTrue(b.output().contains("Joined the embedded ZooKeeper at " + zk + " hosted by process "
                        + a.pid() + " on this host"), b.output());
                assertQuiet("the hosting JVM", hostLog, 14);
                assertFalse(hostLog.contains("(disconnected)"), hostLog);

                RpcRuntime consumer = RpcRuntime.builder().application(new ApplicationConfig("across-jvms-consumer"))
                        .registry(registry).build();
                RpcRuntime observer = RpcRuntime.builder().registry(registry).build();
                try {
                    // generous timeouts: three JVMs start at once on a small, shared machine
                    EchoService echoA = consumer.refer(ReferenceConfig.builder(EchoService.class).version("a")
                            .timeout(Duration.ofSeconds(15)).build());
                    EchoService echoB = consumer.refer(ReferenceConfig.builder(EchoService.class).version("b")
                            .timeout(Duration.ofSeconds(15)).build());
                    assertEquals("to a", echoA.echo("to a"), "provider in the hosting JVM");
                    assertEquals("to b", echoB.echo("to b"), "provider in the other joining JVM");

                    ProviderInfo recordA = providerRecord(observer, keyA);
                    assertEquals("child-a", recordA.attribute(ProviderInfo.APPLICATION).orElseThrow());
                    assertEquals(String.valueOf(a.pid()), recordA.attribute(ProviderInfo.PID).orElseThrow());
                    long started = Long.parseLong(recordA.attribute(ProviderInfo.START_TIME).orElseThrow());
                    assertTrue(started > System.currentTimeMillis() - 600_000 && started <= System.currentTimeMillis(),
                            "start time " + started);
                    assertEquals("0.1.0-SNAPSHOT", recordA.attribute(ProviderInfo.FRAMEWORK_VERSION).orElseThrow());

                    List<ConsumerInfo> callersOfB = observer.inspect().consumers(keyB);
                    assertEquals(1, callersOfB.size(), callersOfB.toString());
                    ConsumerInfo me = callersOfB.get(0);
                    assertEquals("across-jvms-consumer", me.attribute(ProviderInfo.APPLICATION).orElseThrow());
                    assertEquals(String.valueOf(ProcessHandle.current().pid()), me.attribute(ProviderInfo.PID).orElseThrow());
                    assertEquals("0.1.0-SNAPSHOT", me.attribute(ProviderInfo.FRAMEWORK_VERSION).orElseThrow());
                    assertTrue(me.attribute(ProviderInfo.START_TIME).isPresent(), me.toString());

                    a.signal("KILL"); // the hosting JVM dies without a word
                    String survivors = b.pid() + " or " + ProcessHandle.current().pid();
                    Await.until("the lock file names a survivor (" + survivors + ") as the new host",
                            Duration.ofSeconds(30), () -> survivorHosts(port, b.pid()));
                    if (lockHolder(port).equals(String.valueOf(b.pid()))) {
                        b.awaitLine("this process took over hosting it", 5_000);
                    }
                    try {
                        Await.until("provider b registered again in the new ZooKeeper, provider a gone",
                                Duration.ofSeconds(30), () -> providerRecords(observer, keyA).isEmpty()
                                        && !providerRecords(observer, keyB).isEmpty());
                    } catch (AssertionError e) {
                        throw new AssertionError(e.getMessage() + "; records of a: " + providerRecords(observer, keyA)
                                + ", of b: " + providerRecords(observer, keyB) + "; new host " + lockHolder(port)
                                + "; b's log:\n" + b.output(), e);
                    }
                    Await.until("the consumer that was running calls b again", Duration.ofSeconds(15),
                            () -> answers(echoB));
                    assertEquals(1, b.output().lines().filter(l -> l.contains("Starting a new ZooKeeper session"))
                            .count(), "b's registry starts exactly one new session (no reset loop):\n" + b.output());
                    try (RpcRuntime late = RpcRuntime.builder().registry(registry).build()) {
                        EchoService fresh = late.refer(ReferenceConfig.builder(EchoService.class).version("b").build());
                        assertEquals("late", fresh.echo("late"), "a consumer started after the take-over finds b");
                    }
                    Await.until("this consumer's record of b written again in the new ZooKeeper",
                            Duration.ofSeconds(30), () -> observer.inspect().consumers(keyB).equals(List.of(me)));
                    Await.until("provider b registered again, provider a gone", Duration.ofSeconds(30), () -> {
                        List<ProviderInfo> now = providerRecords(observer, keyA);
                        return now.isEmpty() && !providerRecords(observer, keyB).isEmpty();
                    });
                    String survivorLog = b.output();
                    assertFalse(survivorLog.contains("\tat "), "no stack traces while the host is gone:\n" + survivorLog);

                    consumer.close();
                    Await.until("consumer records removed when the consumer closes", Duration.ofSeconds(15),
                            () -> observer.inspect().consumers(keyB).isEmpty());
                } finally {
                    consumer.close();
                    observer.close();
                }
            }
        }
    }

    /** At most {@code maxLines} lines, none of them ZooKeeper's banner, environment or a stack trace. */
    private static void assertQuiet(String who, String log, int maxLines) {
        long lines = log.lines().count();
        assertTrue(lines <= maxLines, who + " logged " + lines + " lines (at most " + maxLines + " expected):\n" + log);
        for (String noise : List.of("\tat ", "Server environment", "zookeeper.version", "______")) {
            assertFalse(log.contains(noise), who + " logged '" + noise + "':\n" + log);
        }
    }

    private static boolean answers(EchoService echo) {
        try {
            return "ping".equals(echo.echo("ping"));
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static ProviderInfo providerRecord(RpcRuntime observer, ServiceKey key) throws InterruptedException {
        AtomicReference<ProviderInfo> found = new AtomicReference<>();
        Await.until("a provider record of " + key, () -> {
            List<ProviderInfo> now = providerRecords(observer, key);
            found.set(now.isEmpty() ? null : now.get(0));
            return !now.isEmpty();
        });
        return found.get();
    }

    /** The provider records of {@code key}, as a reference of the observer sees them. */
    private static List<ProviderInfo> providerRecords(RpcRuntime observer, ServiceKey key) {
        return observer.inspect().providers(key);
    }

    private static boolean survivorHosts(int port, long otherSurvivor) {
        String holder = lockHolder(port);
        return holder.equals(String.valueOf(otherSurvivor)) || holder.equals(String.valueOf(ProcessHandle.current().pid()));
    }

    private static String lockHolder(int port) {
        try {
            return Files.readString(lockFile(port), StandardCharsets.US_ASCII).strip();
        } catch (java.io.IOException e) {
            return "";
        }
    }

    static Path lockFile(int port) {
        return Path.of(System.getProperty("kestrel.rpc.registry.embedded.dir"), "zookeeper-" + port + ".lock");
    }

    /**
     * A free port below Linux's ephemeral range (32768-60999 by default), as the embedded default 2182 is: while
     * the host is gone, the survivors' ZooKeeper clients keep connecting to this port, and a connect from an
     * ephemeral port equal to it connects the socket to itself and holds the port, so the take-over's bind
     * fails (seen here: "Address already in use" with the host lock held by the process binding).
     */
    static int freePort() throws Exception {
        java.util.Random random = new java.util.Random();
        for (int i = 0; i < 200; i++) {
            int candidate = 20_000 + random.nextInt(12_000);
            try (ServerSocket s = new ServerSocket(candidate, 1, InetAddress.getLoopbackAddress())) {
                return s.getLocalPort();
            } catch (java.io.IOException taken) {
                // try another
            }
        }
        throw new IllegalStateException("no free port in 20000-31999 on the loopback address");
    }
}
