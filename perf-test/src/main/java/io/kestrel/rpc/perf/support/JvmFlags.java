package io.kestrel.rpc.perf.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * JVM flags shared by the client, server and JMH JVMs, read from {@code perf-jvm.properties}, which
 * Maven fills from the root pom's {@code netty.jvm.flags} and {@code fst.jvm.opens} properties.
 */
public final class JvmFlags {
    private JvmFlags() {
    }

    /**
     * Every flag a perf-test JVM starts with besides its heap: Netty's ({@code --enable-native-access}, which
     * on JDK 25 lets Netty free direct memory without a handshake of all threads) and fst's {@code --add-opens}.
     */
    public static List<String> all() {
        List<String> flags = new ArrayList<>(property("netty.jvm.flags"));
        flags.addAll(property("fst.jvm.opens"));
        return flags;
    }

    /** The flags of one property; empty if the resource was not filtered. */
    private static List<String> property(String name) {
        Properties p = new Properties();
        try (InputStream in = JvmFlags.class.getResourceAsStream("/perf-jvm.properties")) {
            if (in == null) {
                return List.of();
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read perf-jvm.properties", e);
        }
        String value = p.getProperty(name, "").trim();
        if (value.isEmpty() || value.startsWith("${")) {
            return List.of();
        }
        return Arrays.stream(value.split("\\s+")).toList();
    }
}
