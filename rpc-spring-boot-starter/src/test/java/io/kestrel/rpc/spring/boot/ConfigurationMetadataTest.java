package io.kestrel.rpc.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.spring.internal.EnvironmentKeys;
import io.kestrel.rpc.spring.internal.Settings;
import io.kestrel.rpc.spring.internal.Settings.Setting;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.boot.json.JsonParserFactory;

/**
 * The configuration metadata Boot's annotation processor generates at build time (what IDEs complete and check):
 * present in the jar, one entry with a description for every key the rpc-spring {@code Environment} binding reads,
 * and none it does not read; each with the type and the default of the settings table of rpc-spring.
 */
class ConfigurationMetadataTest {
    /** The Java types {@link KestrelRpcProperties} may give a setting of each table type. */
    private static final Map<String, Set<String>> TYPES = Map.of("int", Set.of("java.lang.Integer"),
            "long", Set.of("java.lang.Long"), "bool", Set.of("java.lang.Boolean", "java.lang.String"),
            "duration", Set.of("java.time.Duration", "java.lang.String"));

    @Test
    void everyEnvironmentKeyHasMetadataWithADescription() throws IOException {
        String json = metadata();
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

    @Test
    void everyPropertyHasTheTypeAndDefaultOfTheSettingsTable() throws IOException {
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> properties = (List<Map<String, Object>>) JsonParserFactory.getJsonParser()
                .parseMap(metadata()).get("properties");
        Map<String, Setting> table = Settings.all().stream().filter(s -> s.where().contains(Settings.Where.ENV))
                .collect(Collectors.toMap(Setting::key, s -> s));
        int checked = 0;
        for (Map<String, Object> p : properties) {
            String key = (String) p.get("name");
            if (!key.startsWith("rpc.")) {
                continue;
            }
            Setting s = table.get(key);
            assertNotNull(s, key + " is a Boot property but not in rpc-spring's settings.txt");
            String type = (String) p.get("type");
            assertTrue(TYPES.getOrDefault(s.type(), Set.of("java.lang.String")).contains(type),
                    key + ": KestrelRpcProperties types it " + type + ", the settings table " + s.type());
            if (s.hasFixedDefault()) {
                String description = (String) p.get("description");
                assertTrue(Pattern.compile("Default:? \"?" + Pattern.quote(s.defaultValue()) + "\\b").matcher(description)
                        .find(), key + ": the description in"
                        + " KestrelRpcProperties does not give the table's default " + s.defaultValue() + ": "
                        + p.get("description"));
            }
            checked++;
        }
        assertEquals(table.size(), checked, "every rpc.* setting of the table is a Boot property");
    }

    private String metadata() throws IOException {
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertNotNull(in, "META-INF/spring-configuration-metadata.json is generated into the jar");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
