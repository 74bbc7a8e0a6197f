package io.kestrel.rpc.core.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.core.fixture.EchoServiceImpl;
import java.io.File;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A process without the optional artifacts (kryo, the embedded registry) still joins a real ZooKeeper and serves
 * with the default serialization; what it lacks (the embedded registry, kryo) fails with the dependency to add, and
 * a registry that is not there fails with one message and no stack trace in the log.
 */
@Timeout(90)
class LeanProcessTest {

    @Test
    void withoutOptionalArtifactsAProcessJoinsAndServesAndMissingPiecesNameTheirDependency() throws Exception {
        String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> !e.contains("rpc-registry-embedded") && !e.contains(File.separator + "kryo"))
                .collect(Collectors.joining(File.pathSeparator));
        assertTrue(classPath.length() < System.getProperty("java.class.path").length(), "something was left out");
        try (TestingServer zk = new TestingServer(true);
                RpcRuntime host = RpcRuntime.builder().registry(RegistryConfig.builder()
                        .address("zookeeper://" + zk.getConnectString()).build()).protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).serialization("kryo").build())
                .build()) {
            // publishes a provider whose preferred serialization is kryo
            host.export(ServiceConfig.builder(EchoService.class, new EchoServiceImpl()).version("kryo").build());
            try (ChildJvm lean = ChildJvm.startWithClassPath("lean", classPath,
                    List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=info", "--enable-native-access=ALL-UNNAMED"),
                    LeanProcessMain.class,
                    zk.getConnectString(), String.valueOf(freePort()), String.valueOf(freePort()))) {
                lean.awaitLine("^READY$", 60_000);
                // generous: the lean JVM answers its first call while it also runs the steps it prints below
                EchoService echo = host.refer(ReferenceConfig.builder(EchoService.class).version("lean")
                        .timeout(java.time.Duration.ofSeconds(30)).build());
                assertEquals("lean", echo.echo("lean"), "served by the process without the optional artifacts");

                String kryo = lean.awaitLine("^KRYO: (.*)$", 30_000).group(1);
                assertTrue(kryo.startsWith("SerializationException: Serialization 'kryo' needs the library "
                        + "com.esotericsoftware:kryo, which is not on the class path"), kryo);
                String hostHere = lean.awaitLine("^HOST: (.*)$", 30_000).group(1);
                assertTrue(hostHere.contains("this process cannot host or join it: the embedded registry is not on "
                        + "its class path. Add the dependency io.kestrel:rpc-registry-embedded"), hostHere);
                String dead = lean.awaitLine("^DEAD: (.*)$", 30_000).group(1);
                assertTrue(dead.contains("within 2000 ms") && dead.contains("connection-timeout"), dead);
                // a provider that prefers kryo: the refer fails at startup naming the library, not "no provider"
                String refer = lean.awaitLine("^REFER: (.*)$", 30_000).group(1);
                assertTrue(refer.contains("needs the library com.esotericsoftware:kryo"), refer + "\n" + lean.output());
                assertTrue(refer.startsWith("NoProviderException: "), refer);
                assertFalse(lean.output().contains("\tat "), "no stack trace in the log:\n" + lean.output());
                // the JVM's own "WARNING:" lines (fory's use of sun.misc.Unsafe on JDK 24+) are not Kestrel's log
                assertTrue(lean.output().lines().filter(l -> !l.startsWith("WARNING: ")).count() <= 16, lean.output());
            }
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
