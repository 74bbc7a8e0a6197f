package io.kestrel.rpc.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.spring.internal.EnvironmentKeys;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The configuration metadata Boot's annotation processor generates at build time (what IDEs complete and check):
 * present in the jar, one entry with a description for every key the rpc-spring {@code Environment} binding reads,
 * and none it does not read.
 */
class ConfigurationMetadataTest {
    @Test
    void everyEnvironmentKeyHasMetadataWithADescription() throws IOException {
        String json;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertNotNull(in, "META-INF/spring-configuration-metadata.json is generated into the jar");
            json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Set<String> documented = new TreeSet<>();
        Matcher m = Pattern.compile("\\{\\s*\"name\"\\s*:\\s*\"(rpc\\.[^\"]+)\"[^{}]*?\"description\"\\s*:\\s*\"[^\"]+")
                .matcher(json);
        while (m.find()) {
            documented.add(m.group(1));
        }
        Set<String> expected = EnvironmentKeys.known();
        assertEquals(expected, documented, "keys with metadata and a description vs keys the binding reads");
        for (String hinted : List.of("rpc.protocol.serialization", "rpc.protocol.threads", "rpc.reference.loadbalance",
                "rpc.reference.cluster")) {
            assertTrue(json.contains("\"name\": \"" + hinted + "\",\n      \"values\"")
                    || Pattern.compile("\"name\"\\s*:\\s*\"" + Pattern.quote(hinted) + "\"\\s*,\\s*\"values\"")
                    .matcher(json).find(), "value hints for " + hinted);
        }
        assertTrue(json.contains("\"management.health.kestrel.enabled\""), json);
        assertTrue(documented.stream().noneMatch(k -> k.chars().anyMatch(Character::isUpperCase)),
                "kebab-case keys: " + documented.stream().filter(k -> !k.equals(k.toLowerCase())).collect(Collectors.toList()));
    }
}
