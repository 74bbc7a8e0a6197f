package io.kestrel.rpc.guards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ServerLimits;
import io.kestrel.rpc.api.serialization.DecodeLimits;
import io.kestrel.rpc.serialization.fory.ForyTypeDefLimits;
import io.kestrel.rpc.transport.internal.dubbo.DubboPipeline;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The default limits, as docs/security.md documents them, pinned against the code: each row of its two limit
 * tables is read back and compared with the default the code applies. A default changed in code without the
 * docs (or the reverse) fails here, and so does a row added to a table without a check below.
 */
class DocumentedLimitsTest {
    private static final long MIB = 1024 * 1024;

    @Test
    void serverLimitsAreThoseTheSecurityPageDocuments() throws IOException {
        Map<String, String> documented = table("| setting | default |");
        ProtocolConfig protocol = ProtocolConfig.builder().build();
        ServerLimits limits = protocol.limits();
        Map<String, Runnable> checks = new LinkedHashMap<>();
        checks.put("max-connections", () -> assertEquals(number(documented.get("max-connections")), limits.maxConnections()));
        checks.put("max-connections-per-host",
                () -> assertEquals(number(documented.get("max-connections-per-host")), limits.maxConnectionsPerHost()));
        checks.put("calls-per-connection", () -> {
            assertEquals("half of `threads`", documented.get("calls-per-connection"));
            assertEquals(100, limits.callsPerConnection(200));
            assertEquals(1, limits.callsPerConnection(1));
        });
        checks.put("memory-budget", () -> {
            assertEquals("a quarter of the heap, 64 MiB..1 GiB", documented.get("memory-budget"));
            long quarter = Runtime.getRuntime().maxMemory() / 4;
            assertEquals(Math.max(64 * MIB, Math.min(1024 * MIB, quarter)), limits.memoryBudgetBytes());
        });
        checks.put("frame-timeout", () -> assertEquals(duration(documented.get("frame-timeout")), limits.frameTimeout()));
        checks.put("write-buffer", () -> assertEquals(bytes(documented.get("write-buffer")), limits.writeBufferBytes()));
        checks.put("write-stall-timeout",
                () -> assertEquals(duration(documented.get("write-stall-timeout")), limits.writeStallTimeout()));
        checks.put("payload", () -> assertEquals(bytes(documented.get("payload")), protocol.payloadBytes()));
        checks.put("disclose-services",
                () -> assertEquals(Boolean.parseBoolean(documented.get("disclose-services")), limits.discloseServices()));
        checks.put("stream-idle-timeout",
                () -> assertEquals(duration(documented.get("stream-idle-timeout")), limits.streamIdleTimeout()));
        runEach(documented, checks);
    }

    @Test
    void decodeLimitsAreThoseTheSecurityPageDocuments() throws IOException {
        Map<String, String> documented = table("| limit | default |");
        DecodeLimits limits = DecodeLimits.defaults();
        Map<String, Runnable> checks = new LinkedHashMap<>();
        checks.put("maxDepth", () -> assertEquals(number(documented.get("maxDepth")), limits.maxDepth()));
        checks.put("maxElements", () -> assertEquals(number(documented.get("maxElements")), limits.maxElements()));
        checks.put("maxHashNesting", () -> assertEquals(number(documented.get("maxHashNesting")), limits.maxHashNesting()));
        checks.put("maxHashWork", () -> assertEquals(number(documented.get("maxHashWork")), limits.maxHashWork()));
        checks.put("deadline", () -> assertEquals("the call's timeout", documented.get("deadline")));
        checks.put("dubboDecodeDeadlineMillis", () -> {
            assertEquals(number(documented.get("dubboDecodeDeadlineMillis")), DubboPipeline.decodeDeadlineMillis());
            assertEquals(DubboPipeline.DEFAULT_DECODE_DEADLINE_MILLIS, DubboPipeline.decodeDeadlineMillis());
        });
        ForyTypeDefLimits fory = ForyTypeDefLimits.fromSystemProperties();
        checks.put("foryMaxSchemaVersionsPerType",
                () -> assertEquals(number(documented.get("foryMaxSchemaVersionsPerType")), fory.maxSchemaVersionsPerType()));
        checks.put("foryMaxAverageSchemaVersionsPerType", () -> assertEquals(
                number(documented.get("foryMaxAverageSchemaVersionsPerType")), fory.maxAverageSchemaVersionsPerType()));
        checks.put("foryMaxTypeMetaBytes",
                () -> assertEquals(number(documented.get("foryMaxTypeMetaBytes")), fory.maxTypeMetaBytes()));
        checks.put("foryMaxTypeFields",
                () -> assertEquals(number(documented.get("foryMaxTypeFields")), fory.maxTypeFields()));
        runEach(documented, checks);
        String page = Files.readString(ReactorPoms.root().resolve("docs/security.md"));
        for (String property : List.of(DecodeLimits.MAX_DEPTH_PROPERTY, DecodeLimits.MAX_ELEMENTS_PROPERTY,
                DecodeLimits.MAX_HASH_NESTING_PROPERTY, DecodeLimits.MAX_HASH_WORK_PROPERTY,
                DubboPipeline.DECODE_DEADLINE_PROPERTY, ForyTypeDefLimits.MAX_SCHEMA_VERSIONS_PER_TYPE_PROPERTY,
                ForyTypeDefLimits.MAX_AVERAGE_SCHEMA_VERSIONS_PER_TYPE_PROPERTY,
                ForyTypeDefLimits.MAX_TYPE_META_BYTES_PROPERTY, ForyTypeDefLimits.MAX_TYPE_FIELDS_PROPERTY)) {
            assertTrue(page.contains("`" + property + "`"), "docs/security.md names the system property " + property);
        }
    }

    private static void runEach(Map<String, String> documented, Map<String, Runnable> checks) {
        assertEquals(new TreeSet<>(checks.keySet()), new TreeSet<>(documented.keySet()),
                "every documented limit has a check here, and every checked limit is documented");
        checks.forEach((name, check) -> {
            try {
                check.run();
            } catch (AssertionError e) {
                throw new AssertionError("docs/security.md documents " + name + " = " + documented.get(name)
                        + ", the code differs: " + e.getMessage(), e);
            }
        });
    }

    /** The first two columns of the table whose header row starts with {@code header}: name (unquoted) to default. */
    private static Map<String, String> table(String header) throws IOException {
        List<String> lines = Files.readAllLines(ReactorPoms.root().resolve("docs/security.md"));
        Map<String, String> rows = new LinkedHashMap<>();
        int start = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(header)) {
                start = i + 2; // past the header and its |---| line
                break;
            }
        }
        assertTrue(start > 0, "docs/security.md has a table starting " + header);
        for (int i = start; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            String[] cells = lines.get(i).split("\\|");
            rows.put(cells[1].trim().replace("`", ""), cells[2].trim());
        }
        return rows;
    }

    private static long number(String text) {
        return Long.parseLong(text.replace(",", ""));
    }

    private static long bytes(String text) {
        assertTrue(text.endsWith(" MiB"), "a size in MiB: " + text);
        return number(text.substring(0, text.length() - 4)) * MIB;
    }

    private static Duration duration(String text) {
        assertTrue(text.endsWith(" s"), "a duration in seconds: " + text);
        return Duration.ofSeconds(number(text.substring(0, text.length() - 2)));
    }
}
