package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.api.serialization.SerializerIds;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.core.fixture.Payload;
import io.kestrel.rpc.serialization.fory.ForyTypeDefLimits;
import io.kestrel.rpc.transport.Status;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fory's compatible mode caches every class definition a caller sends that differs from the local class, per
 * engine pool and for good: a caller sending ever new layouts of an allowed class would grow that cache without
 * end. Over a real socket, a raw client sends {@link Payload} arguments in as many distinct layouts (the class
 * compiled again with 1, 2, 3... fields); the provider keeps the first
 * {@value ForyTypeDefLimits#DEFAULT_MAX_SCHEMA_VERSIONS_PER_TYPE} layouts (answered) and refuses every further one
 * before caching it, with a message naming the setting, while a well-behaved compatible consumer is served
 * throughout, on its long-lived connection and on a fresh one.
 */
class ForyTypeDefCacheTest {
    private static final String ECHO_PAYLOAD = EchoService.class.getName() + "#echoPayload(" + Payload.class.getName()
            + ")";
    private static final int LAYOUTS = ForyTypeDefLimits.DEFAULT_MAX_SCHEMA_VERSIONS_PER_TYPE + 8;

    static RpcRuntime provider;
    static RpcRuntime consumer;
    static EchoService goodClient;

    @BeforeAll
    static void start() {
        provider = TestRuntimes.echoProvider(TestRuntimes.loopback(), "fory" + TestRuntimes.COMPATIBLE);
        consumer = RpcRuntime.builder().build();
        goodClient = consumer.refer(TestRuntimes.echoReference(provider, "fory" + TestRuntimes.COMPATIBLE).build());
    }

    @AfterAll
    static void stop() {
        consumer.close();
        provider.close();
    }

    @Test
    void distinctLayoutsOfOneClassAreKeptUpToTheLimitThenRefused(@TempDir Path dir) throws Exception {
        List<byte[]> arguments = layouts(dir);
        Outcome outcome = send(provider, arguments);
        assertEquals(ForyTypeDefLimits.DEFAULT_MAX_SCHEMA_VERSIONS_PER_TYPE, outcome.answered, "layouts kept");
        assertEquals(LAYOUTS - outcome.answered, outcome.refused);
        String message = outcome.refusal;
        assertTrue(message.contains("-D" + ForyTypeDefLimits.MAX_SCHEMA_VERSIONS_PER_TYPE_PROPERTY), message);
        assertTrue(message.contains("more layouts of one class"), message);
        try (RpcRuntime fresh = RpcRuntime.builder().build()) {
            EchoService client = fresh.refer(TestRuntimes.echoReference(provider, "fory" + TestRuntimes.COMPATIBLE)
                    .build());
            assertEquals(Payload.sample(7), client.echoPayload(Payload.sample(7)), "a fresh connection's call");
        }
    }

    /**
     * Mutation check: the same layouts against a provider with {@code maxSchemaVersionsPerType} out of reach are all
     * decoded and kept, so the bound (and the setting reaching fory) is what refuses them. Fory engines are built
     * once per serializer and the provider's serializers are shared within a process, so the provider with the
     * setting runs in a child JVM ({@link #main}) rather than beside the one above.
     */
    @Test
    void withTheBoundOutOfReachEveryLayoutIsKept() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-D" + ForyTypeDefLimits.MAX_SCHEMA_VERSIONS_PER_TYPE_PROPERTY + "=1000",
                "-cp", System.getProperty("java.class.path"), ForyTypeDefCacheTest.class.getName())
                .redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(child.waitFor(90, TimeUnit.SECONDS), "the child JVM did not finish");
        assertEquals(0, child.exitValue(), output);
        assertTrue(output.contains("kept " + LAYOUTS + " of " + LAYOUTS + " layouts, refused 0"), output);
    }

    /** The child JVM of {@link #withTheBoundOutOfReachEveryLayoutIsKept}: the attack against a provider of its own. */
    public static void main(String[] args) throws Exception {
        start();
        Path dir = Files.createTempDirectory("layouts");
        try {
            Outcome outcome = send(provider, layouts(dir));
            System.out.println("kept " + outcome.answered + " of " + LAYOUTS + " layouts, refused " + outcome.refused);
        } finally {
            stop();
        }
        System.exit(0);
    }

    private record Outcome(int answered, int refused, String refusal) {
    }

    private static List<byte[]> layouts(Path dir) throws Exception {
        List<byte[]> arguments = new ArrayList<>();
        for (int fields = 1; fields <= LAYOUTS; fields++) {
            arguments.add(payloadWithFields(dir.resolve("v" + fields), fields));
        }
        return arguments;
    }

    /** Sends each layout once on one raw connection, the good client calling after each; counts the answers. */
    private static Outcome send(RpcRuntime target, List<byte[]> arguments) throws IOException {
        int answered = 0;
        int refused = 0;
        String refusal = null;
        try (RawClient raw = new RawClient(target.boundPort())) {
            for (int i = 0; i < arguments.size(); i++) {
                raw.writeRequest(i + 1, SerializerIds.FORY, 0, i == 0 ? ECHO_PAYLOAD : null, arguments.get(i));
                RawClient.Response r = raw.read();
                if (r.status() == Status.OK.code()) {
                    answered++;
                    assertEquals(0, refused, "a layout was answered after one was refused: the bound is not held");
                } else {
                    assertEquals(Status.BAD_REQUEST.code(), r.status(), "status " + r.status());
                    refused++;
                    refusal = r.message();
                }
                assertEquals(Payload.sample(i), goodClient.echoPayload(Payload.sample(i)), "the good client's call");
            }
            // a layout already kept is still read: the bound refuses only new ones
            raw.writeRequest(100, SerializerIds.FORY, 0, null, arguments.get(0));
            assertEquals(Status.OK.code(), raw.read().status());
        }
        return new Outcome(answered, refused, refusal);
    }

    /**
     * A {@link Payload} of another layout ({@code long id} and {@code fields - 1} int fields), compiled into
     * {@code dir} and written by a compatible-mode fory serializer the way a caller with that class would.
     */
    private static byte[] payloadWithFields(Path dir, int fields) throws Exception {
        String pkg = Payload.class.getPackageName();
        StringBuilder source = new StringBuilder("package " + pkg + "; public class Payload implements"
                + " java.io.Serializable { public long id = 7;");
        for (int f = 1; f < fields; f++) {
            source.append(" public int v").append(f).append(" = ").append(f).append(';');
        }
        source.append(" }");
        Path file = dir.resolve(pkg.replace('.', '/')).resolve("Payload.java");
        Files.createDirectories(file.getParent());
        Files.writeString(file, source);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertEquals(0, javac.run(null, null, null, "-d", dir.toString(), file.toString()), "compiled " + source);
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, null)) {
            Class<?> variant = loader.loadClass(Payload.class.getName());
            Object value = variant.getConstructor().newInstance();
            Thread thread = Thread.currentThread();
            ClassLoader previous = thread.getContextClassLoader();
            thread.setContextClassLoader(loader);
            try {
                Serializer fory = TestRuntimes.serializer("fory" + TestRuntimes.COMPATIBLE,
                        ClassAllowlist.withDefaults().allowClass(variant));
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                fory.serialize(value, out);
                return out.toByteArray();
            } finally {
                thread.setContextClassLoader(previous);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
