package io.kestrel.rpc.core.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ConsumerLimits;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.TestRuntimes;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.core.fixture.EchoServiceImpl;
import io.kestrel.rpc.core.reliability.HostileProvider.Behaviour;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A consumer defends itself against a provider that lies ({@link HostileProvider}: raw sockets on 127.0.0.1)
 * and a registry writer that lies (records written straight into a real in-process ZooKeeper). The consumer
 * is a real runtime in a JVM of its own ({@link HostileProviderConsumerMain}), so its JVM-wide limits can be
 * lowered for the test: frame timeout 1.5 s, response memory budget 24 MiB, published timeouts capped at
 * 1.5 s, at most 3 providers per reference. Each scenario also checks that the healthy provider (a real
 * runtime in this JVM) keeps answering the same consumer.
 */
class HostileProviderTest {
    private static final String SERVICE = EchoService.class.getName();
    private static final Map<String, String> results = new HashMap<>();
    private static final List<AutoCloseable> closeables = new ArrayList<>();
    private static String output;

    @BeforeAll
    static void runTheConsumer() throws Exception {
        TestingServer zk = new TestingServer(true);
        closeables.add(zk);
        RpcRuntime healthy = RpcRuntime.builder().protocol(TestRuntimes.loopback().build())
                .registry(RegistryConfig.builder().address("zookeeper://" + zk.getConnectString()).build()).build();
        closeables.add(healthy);
        healthy.export(ServiceConfig.builder(EchoService.class, new EchoServiceImpl()).build());
        healthy.export(ServiceConfig.builder(EchoService.class, new EchoServiceImpl()).group("cap").build());

        List<String> args = new ArrayList<>(List.of(zk.getConnectString(), Integer.toString(healthy.boundPort())));
        args.add(port(new HostileProvider(Behaviour.TRICKLE_HALF_FRAME)));
        args.add(port(new HostileProvider(Behaviour.TRICKLE_HALF_FRAME)));
        args.add(port(new HostileProvider(Behaviour.HUGE_ERROR)));
        args.add(port(new HostileProvider(Behaviour.SERIALIZED_ERROR, facts("8", "kryo"), deepCauseChain())));
        args.add(port(new HostileProvider(Behaviour.NULL_RESULT, facts("3", "java"), null)));
        args.add(port(new HostileProvider(Behaviour.SILENT)));
        args.add(port(HostileProvider.dubbo(Behaviour.TRICKLE_HALF_FRAME)));
        args.add(port(HostileProvider.dubbo(Behaviour.TRICKLE_HALF_FRAME)));
        args.add(port(HostileProvider.dubbo(Behaviour.OVERSIZED)));

        try (ChildJvm consumer = ChildJvm.start("hostile-provider-consumer", List.of("-Xmx256m",
                "-D" + ConsumerLimits.FRAME_TIMEOUT_PROPERTY + "=1500",
                "-D" + ConsumerLimits.MEMORY_BUDGET_PROPERTY + "=" + (24 << 20),
                "-D" + ConsumerLimits.MAX_PROVIDER_TIMEOUT_PROPERTY + "=1500",
                "-D" + ConsumerLimits.MAX_PROVIDERS_PROPERTY + "=3"),
                HostileProviderConsumerMain.class, args.toArray(new String[0]))) {
            consumer.awaitLine("^DONE$", 120_000);
            output = consumer.output();
        }
        Matcher m = java.util.regex.Pattern.compile("(?m)^CHECK (\\S+) (PASS|FAIL) ?(.*)$").matcher(output);
        while (m.find()) {
            results.put(m.group(1), m.group(2) + " " + m.group(3));
            System.out.println(m.group()); // what each scenario measured, in the test report
        }
    }

    @AfterAll
    static void stop() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) { // ZooKeeper last: the runtime unregisters first
            closeables.get(i).close();
        }
    }

    private static String port(HostileProvider provider) {
        closeables.add(provider);
        return Integer.toString(provider.port());
    }

    /** A handshake saying EchoService accepts only {@code ids} and prefers {@code preferred}. */
    private static Map<String, Map<String, String>> facts(String ids, String preferred) {
        return Map.of(SERVICE, Map.of("serialization", ids, "preferred-serialization", preferred));
    }

    /** A kryo-serialized exception whose causes nest 300 deep, past the decode depth limit. */
    private static byte[] deepCauseChain() {
        Throwable t = new IllegalStateException("bottom");
        for (int i = 0; i < 300; i++) {
            t = new IllegalStateException("level " + i, t);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TestRuntimes.serializer("kryo", ClassAllowlist.withDefaults()).serialize(t, out);
        return out.toByteArray();
    }

    private static void assertPassed(String check) {
        String result = results.get(check);
        assertNotNull(result, "the consumer printed no result for " + check + "; its output: " + output);
        assertTrue(result.startsWith("PASS"), check + ": " + result + "\nconsumer output:\n" + output);
    }

    @Test
    void theHealthyProviderAnswers() {
        assertPassed("healthy");
    }

    @Test
    void aHalfFrameTrickledPastTheFrameTimeoutClosesItsConnectionAndASecondDoesNotFitTheMemoryBudget() {
        assertPassed("trickle");
        assertTrue(output.contains("Closing connection to provider 127.0.0.1:"), output);
    }

    /** The consumer's dubbo connections are held to the same frame timeout and memory budget as its native ones. */
    @Test
    void overTheDubboProtocolTooAHalfFrameIsCutByTheFrameTimeoutAndASecondRefusedByTheBudget() {
        assertPassed("dubbo-trickle");
    }

    @Test
    void anOversizedDubboAnswerIsRefusedFromItsHeaderAndNeverBuffered() {
        assertPassed("dubbo-oversized");
    }

    @Test
    void aHugeErrorMessageArrivesCutAndOthersCallsKeepWorking() {
        assertPassed("huge-error");
    }

    @Test
    void aSerializedExceptionPastTheDecodeLimitsIsRebuiltFromItsNameAndMessage() {
        assertPassed("deep-error");
    }

    @Test
    void aProviderPreferringJavaIsLeftOutUnlessTheReferenceSetsJavaItself() {
        assertPassed("java-refused");
        assertPassed("java-opt-in");
    }

    @Test
    void aPublishedTimeoutOfDaysIsClampedToTheCapWithOneWarning() {
        assertPassed("timeout-clamped");
        assertEquals(1, output.split("publishes timeout=2073600000 ms", -1).length - 1, output);
    }

    @Test
    void recordsFloodingAServicePastTheCapDoNotPushOutTheProviderInUse() {
        assertPassed("provider-cap");
        assertTrue(output.contains("over this consumer's cap of 3"), output);
    }
}
