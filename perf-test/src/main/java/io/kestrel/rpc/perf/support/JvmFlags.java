package io.kestrel.rpc.perf.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * JVM flags shared by the client, server and JMH JVMs, read from {@code perf-jvm.properties}, which
 * Maven fills from the root pom's {@code fst.jvm.opens} property.
 */
public final class JvmFlags {
    private JvmFlags() {
    }

    /** The {@code --add-opens} flags fst needs on JDK 17+; empty if the resource was not filtered. */
    public static List<String> fstOpens() {
        Properties p = new Properties();
        try (InputStream in = JvmFlags.class.getResourceAsStream("/perf-jvm.properties")) {
            if (in == null) {
                return List.of();
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read perf-jvm.properties", e);
        }
        String opens = p.getProperty("fst.jvm.opens", "").trim();
        if (opens.isEmpty() || opens.startsWith("${")) {
            return List.of();
        }
        return Arrays.stream(opens.split("\\s+")).toList();
    }
}
