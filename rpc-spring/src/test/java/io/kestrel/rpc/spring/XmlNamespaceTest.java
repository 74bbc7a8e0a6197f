package io.kestrel.rpc.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.spring.fixture.GreetingService;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.context.support.GenericXmlApplicationContext;

/** The XML namespace end to end: real contexts, a real ZooKeeper, real sockets on loopback. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class XmlNamespaceTest {
    /** The closing test registers under its own root, so the shared provider is not in its way. */
    private static final String CLOSING_ROOT = "/closing";
    private static final String PROVIDERS = CLOSING_ROOT + "/" + GreetingService.class.getName() + "/providers";
    private static TestingServer zookeeper;
    private static String zk;
    /** Provider "p1" under the default root, shared by the tests that only call it. */
    private static GenericXmlApplicationContext provider;
    /** The same provider in compatible mode (a provider-wide setting), under its own root. */
    private static GenericXmlApplicationContext compatibleProvider;

    @BeforeAll
    static void start() throws Exception {
        zookeeper = new TestingServer(true);
        zk = "zookeeper://" + zookeeper.getConnectString();
        provider = TestContexts.xml("provider.xml", Map.of("zk", zk, "tag", "p1"));
        compatibleProvider = TestContexts.xml("provider.xml", Map.of("zk", zk, "tag", "p1", "root", "/kestrel-compatible",
                "provider.compatible", "true"));
    }

    @AfterAll
    static void stop() throws Exception {
        compatibleProvider.close();
        provider.close();
        zookeeper.close();
    }

    @Test
    void genericReferenceCallsByNameWithoutTheInterface() throws Exception {
        try (GenericXmlApplicationContext consumer = TestContexts.xml("consumer-generic.xml", Map.of("zk", zk))) {
            io.kestrel.rpc.api.generic.GenericService greeter =
                    consumer.getBean("greeter", io.kestrel.rpc.api.generic.GenericService.class);
            assertEquals("hello ann from p1", greeter.$invoke("greet", new String[] {"java.lang.String"},
                    new Object[] {"ann"}));
            assertEquals("hello bob from p1", greeter.$invokeAsync("greetAsync", null, new Object[] {"bob"})
                    .get(5, TimeUnit.SECONDS));
            assertEquals(List.of("greet", "greetAsync", "whoAmI"), greeter.$metadata().methods().stream()
                    .map(io.kestrel.rpc.api.generic.MethodMetadata::name).toList());
            assertTrue(consumer.getBean("&greeter", ReferenceBean.class).getReferenceConfig().isGeneric());
        }
        Exception bad = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> TestContexts.xml(
                "consumer-generic.xml", Map.of("zk", zk, "generic.interface", "no such.Service", "generic.check", "false")));
        String messages = TestContexts.messages(bad);
        assertTrue(messages.contains("interface") && messages.contains("must be a class name such as"
                + " com.example.UserService, was 'no such.Service'"), messages);
    }

    @Test
    void xmlConsumerCallsXmlProviderFoundThroughZooKeeper() {
        try (GenericXmlApplicationContext consumer = TestContexts.xml("consumer.xml", Map.of("zk", zk))) {
            GreetingService greeter = consumer.getBean("greeter", GreetingService.class);

            assertEquals("hello ann from p1", greeter.greet("ann"));
            assertEquals("hello bob from p1", greeter.greetAsync("bob").join());
            ReferenceConfig<?> ref = consumer.getBean("&greeter", ReferenceBean.class).getReferenceConfig();
            assertEquals("roundrobin", ref.loadBalance());
            assertEquals(Optional.of(Duration.ofSeconds(2)), ref.timeout());
            ProtocolConfig protocol = provider.getBean(RpcRuntime.class).protocol();
            assertEquals(Duration.ofSeconds(2), protocol.shutdownTimeout());
            assertEquals("test-provider-p1", provider.getBean(RpcRuntime.class).application().name());
        }
    }

    @Test
    void serviceTimeoutAttributeIsPublishedInTheRegistryRecord() throws Exception {
        try (CuratorFramework curator = CuratorFrameworkFactory.newClient(zookeeper.getConnectString(), new RetryOneTime(100))) {
            curator.start();
            List<String> nodes = curator.getChildren().forPath("/kestrel/" + GreetingService.class.getName() + "/providers");
            assertTrue(!nodes.isEmpty(), "provider p1 is registered");
            for (String node : nodes) {
                ProviderInfo record = ProviderInfo.fromUrl(URLDecoder.decode(node, StandardCharsets.UTF_8));
                assertEquals(Optional.of(Duration.ofSeconds(2)), record.timeout(), "timeout=\"2s\" of <rpc:service>");
            }
        }
    }

    /**
     * The consumer calls through a proxy that reads each request frame's header; the serialization id
     * there follows the reference's XML attribute, or (when the reference has none) the provider's
     * preference (kryo, from the handshake): the consumer's own {@code <rpc:protocol serialization>} is
     * its provider side's setting and does not override the provider's (issue 12, the Dubbo rule).
     */
    @ParameterizedTest(name = "{0} serialization=\"{1}\" compatible={3} puts id {2} on the wire")
    @CsvSource({
        "reference, fory, 28, false",
        "reference, fory, 28, true",
        "protocol, fory, 8, false",
        "reference, kryo, 8, false",
        "reference, hessian2, 2, false",
        "reference, fastjson2, 6, false",
        "reference, java, 3, false",
        "protocol, hessian2, 8, false",
        "protocol, fst, 8, false",
    })
    void serializationAttributeSetsTheIdInEveryRequestFrame(String element, String name, byte expectedId,
            boolean compatible) throws Exception {
        GenericXmlApplicationContext target = compatible ? compatibleProvider : provider;
        try (FrameRecordingProxy proxy = new FrameRecordingProxy(target.getBean(RpcRuntime.class).boundPort());
             GenericXmlApplicationContext consumer = TestContexts.xml("consumer.xml", Map.of("zk", zk,
                     "consumer.reference.url", proxy.address(), "consumer." + element + ".serialization", name,
                     "consumer.reference.compatible", String.valueOf(compatible)))) {
            GreetingService greeter = consumer.getBean("greeter", GreetingService.class);

            for (int i = 0; i < 3; i++) {
                assertEquals("hello n" + i + " from p1", greeter.greet("n" + i));
            }

            List<Byte> ids = proxy.requestSerializationIds();
            assertEquals(3, ids.size(), "request frames seen: " + ids);
            assertEquals(Set.of(expectedId), new HashSet<>(ids));
        }
    }

    @Test
    void closingAProviderContextUnregistersItAndConsumersStopRoutingToIt() throws Exception {
        try (CuratorFramework curator = CuratorFrameworkFactory.newClient(zookeeper.getConnectString(), new RetryOneTime(100));
             GenericXmlApplicationContext p2 = TestContexts.xml("provider.xml", Map.of("zk", zk, "tag", "p2",
                     "root", CLOSING_ROOT))) {
            curator.start();
            GenericXmlApplicationContext p1 = TestContexts.xml("provider.xml", Map.of("zk", zk, "tag", "p1",
                    "root", CLOSING_ROOT));
            try (GenericXmlApplicationContext consumer = TestContexts.xml("consumer.xml", Map.of("zk", zk,
                    "root", CLOSING_ROOT))) {
                GreetingService greeter = consumer.getBean("greeter", GreetingService.class);
                assertEquals(2, curator.getChildren().forPath(PROVIDERS).size());
                awaitBothProvidersServe(greeter);

                // keep calling while p1 shuts down: no call may fail
                AtomicBoolean stop = new AtomicBoolean();
                AtomicInteger calls = new AtomicInteger();
                AtomicReference<Throwable> failure = new AtomicReference<>();
                Thread caller = new Thread(() -> {
                    while (!stop.get() && failure.get() == null) {
                        try {
                            greeter.whoAmI();
                            calls.incrementAndGet();
                        } catch (RuntimeException e) {
                            failure.set(e);
                        }
                    }
                });
                caller.start();
                p1.close();
                List<String> left = curator.getChildren().forPath(PROVIDERS);
                stop.set(true);
                caller.join(5_000);

                assertEquals(1, left.size(), "registry after closing p1: " + left);
                assertTrue(left.get(0).contains(String.valueOf(p2.getBean(RpcRuntime.class).boundPort())), left.get(0));
                assertEquals(null, failure.get(), "a call failed while p1 was closing");
                assertTrue(calls.get() > 0);
                for (int i = 0; i < 20; i++) {
                    assertEquals("p2", greeter.whoAmI());
                }
            } finally {
                p1.close();
            }
        }
    }

    private static void awaitBothProvidersServe(GreetingService greeter) {
        Set<String> seen = new HashSet<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (seen.size() < 2 && System.nanoTime() < deadline) {
            seen.add(greeter.whoAmI());
        }
        assertEquals(Set.of("p1", "p2"), seen);
    }
}
