package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.generic.GenericService;
import io.kestrel.rpc.core.fixture.EchoService;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A generic call carries its trees with each serialization of the matrix, compatible mode included. */
@org.junit.jupiter.api.Timeout(value = 120, unit = java.util.concurrent.TimeUnit.SECONDS)
class GenericSerializationMatrixTest {
    static List<String> serializations() {
        return TestRuntimes.SERIALIZATIONS;
    }

    @ParameterizedTest
    @MethodSource("serializations")
    void aNestedPayloadTreeRoundTrips(String entry) {
        try (RpcRuntime provider = TestRuntimes.echoProvider(TestRuntimes.loopback(), entry);
                RpcRuntime consumer = RpcRuntime.builder().loadInterceptors(false).build()) {
            GenericService echo = consumer.refer(ReferenceConfig.generic(EchoService.class.getName())
                    .url("127.0.0.1:" + provider.boundPort()).serialization(TestRuntimes.name(entry))
                    .compatible(TestRuntimes.compatible(entry)).timeout(Duration.ofSeconds(5)).build());
            Map<String, Object> payload = new LinkedHashMap<>();
            payload.put("id", 3);
            payload.put("name", "p3");
            payload.put("kind", "LARGE");
            payload.put("price", "15.50");
            payload.put("created", "2026-11-22T10:30:03");
            payload.put("tags", List.of("a", "b"));
            payload.put("counts", Map.of("x", 3));
            payload.put("child", Map.of("id", 4, "name", "child"));
            Map<?, ?> back = assertInstanceOf(Map.class, echo.$invoke("echoPayload",
                    new String[] {"io.kestrel.rpc.core.fixture.Payload"}, new Object[] {payload}));
            assertEquals(3L, ((Number) back.get("id")).longValue());
            assertEquals("LARGE", back.get("kind"));
            assertEquals("15.50", back.get("price").toString());
            assertEquals("2026-11-22T10:30:03", back.get("created"));
            assertEquals(List.of("a", "b"), back.get("tags"));
            assertEquals(3, ((Number) ((Map<?, ?>) back.get("counts")).get("x")).intValue());
            assertEquals("child", ((Map<?, ?>) back.get("child")).get("name"));
            assertEquals(6L, ((Number) echo.$invoke("add", new String[] {"long", "int", "java.lang.String"},
                    new Object[] {1, 2, "3"})).longValue());
        }
    }
}
