package io.kestrel.rpc.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.spring.fixture.Profile;
import io.kestrel.rpc.spring.fixture.ProfileService;
import java.util.List;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.support.GenericXmlApplicationContext;

/**
 * Issue 12 in Spring XML as a Dubbo user writes it: {@code <rpc:protocol serialization="kryo" optimizer=...>}
 * on the provider, a plain {@code <rpc:reference>} on the consumer; and a consumer forcing a serialization
 * the provider does not accept fails at startup (check is on by default), not at every call.
 */
@Timeout(60)
class DubboWayXmlTest {
    @Test
    void aPlainXmlReferenceCallsAKryoProviderWithAnOptimizer() throws Exception {
        try (TestingServer zk = new TestingServer(true);
                GenericXmlApplicationContext provider = TestContexts.xml("dubbo-way-provider.xml",
                        Map.of("zk", "zookeeper://" + zk.getConnectString()));
                GenericXmlApplicationContext consumer = TestContexts.xml("dubbo-way-consumer.xml",
                        Map.of("zk", "zookeeper://" + zk.getConnectString()))) {
            ProfileService profiles = consumer.getBean("profiles", ProfileService.class);
            Profile sent = new Profile("Ada", new Profile.Place("London"), List.of(new Profile.Place("Turin")));
            assertEquals(new Profile("Ada (seen)", new Profile.Place("London"), List.of(new Profile.Place("Paris"))),
                    profiles.touch(sent));

            Exception e = assertThrows(Exception.class, () -> TestContexts.xml("dubbo-way-consumer.xml", Map.of("zk",
                    "zookeeper://" + zk.getConnectString(), "consumer.serialization", "fastjson2")));
            String messages = TestContexts.messages(e);
            assertTrue(messages.contains("does not accept serialization fastjson2")
                    && messages.contains("it accepts [kryo]"), messages);
        }
    }
}
