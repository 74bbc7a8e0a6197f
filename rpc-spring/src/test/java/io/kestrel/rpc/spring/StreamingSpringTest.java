package io.kestrel.rpc.spring;

import io.kestrel.rpc.spring.fixture.StreamingCalls;
import io.kestrel.rpc.spring.fixture.StreamingService;
import io.kestrel.rpc.spring.fixture.StreamingServiceImpl;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.support.GenericXmlApplicationContext;

/**
 * A streaming interface (server, client and bidirectional methods) exported and referred through Spring XML and
 * through annotations, unchanged, found through a real in-process ZooKeeper and called over a real socket.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class StreamingSpringTest {
    private static final int MESSAGES = 1000;
    private static TestingServer zookeeper;

    @BeforeAll
    static void startZooKeeper() throws Exception {
        zookeeper = new TestingServer(true);
    }

    @AfterAll
    static void stopZooKeeper() throws Exception {
        zookeeper.close();
    }

    @Test
    void xmlExportsAndRefersEachStreamingShape() throws Exception {
        Map<String, Object> props = Map.of("zk", "zookeeper://" + zookeeper.getConnectString());
        try (GenericXmlApplicationContext provider = TestContexts.xml("streaming-provider.xml", props);
             GenericXmlApplicationContext consumer = TestContexts.xml("streaming-consumer.xml", props)) {
            StreamingCalls.exercise(consumer.getBean("streams", StreamingService.class), MESSAGES);
        }
    }

    /** Exported by annotation. */
    @RpcService(version = "1.0", timeout = "20s")
    static class AnnotatedStreams extends StreamingServiceImpl {
    }

    @Configuration
    @EnableKestrelRpc
    @Import(AnnotatedStreams.class)
    static class ProviderConfig {
    }

    /** Refers by annotation. */
    static class Client {
        @RpcReference(version = "1.0", timeout = "20s")
        StreamingService streams;
    }

    @Configuration
    @EnableKestrelRpc
    static class ConsumerConfig {
        @Bean
        Client client() {
            return new Client();
        }
    }

    @Test
    void annotationsExportAndReferEachStreamingShape() throws Exception {
        String zk = "zookeeper://" + zookeeper.getConnectString();
        try (AnnotationConfigApplicationContext provider = AnnotationConfigTest.context(ProviderConfig.class, Map.of(
                "rpc.application.name", "annotated-streams", "rpc.registry.address", zk, "rpc.protocol.port", "0"));
             AnnotationConfigApplicationContext consumer = AnnotationConfigTest.context(ConsumerConfig.class, Map.of(
                     "rpc.registry.address", zk))) {
            StreamingCalls.exercise(consumer.getBean(Client.class).streams, MESSAGES);
        }
    }
}
