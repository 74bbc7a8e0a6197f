package io.kestrel.rpc.serialization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.Serialization;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.api.serialization.Serializer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Two versions of one DTO ({@value #DTO}, same name, compiled at test time from
 * {@code src/test/resources/compat/<version>/Quote.java}) live in separate class loaders whose parent
 * is the test loader. A writer in one loader serializes, a reader in another deserializes (each side
 * creates its serializer with its own loader as the thread context class loader, as two processes
 * would). Versions: {@code v1} (id, label, note, qty), {@code added} (+ currency, priceMicros),
 * {@code removed} (- label), {@code reordered} (same fields, other declaration order).
 *
 * <p>In compatible mode every serialization that supports it must give the reader the writer's value
 * for each common field and the Java default for the others. fst and java refuse compatible mode
 * at {@code create()}. Plain mode must never produce silently wrong values, except where
 * documented below as a known hazard.
 */
class CompatibilityMatrixTest {
    private static final Logger log = LoggerFactory.getLogger(CompatibilityMatrixTest.class);
    static final String DTO = "io.kestrel.rpc.compat.dto.Quote";
    private static final String DTO_PACKAGE = "io.kestrel.rpc.compat.dto";
    private static final List<String> VERSIONS = List.of("v1", "added", "removed", "reordered");
    /** writer -> reader pairs: field added (both ways), removed (both ways), reordered (both ways). */
    private static final List<String[]> CASES = List.of(
            new String[] {"v1", "added"}, new String[] {"added", "v1"},
            new String[] {"v1", "removed"}, new String[] {"removed", "v1"},
            new String[] {"v1", "reordered"}, new String[] {"reordered", "v1"});
    /** Values the writer sets, by field name; fields the writer's version lacks are skipped. */
    private static final Map<String, Object> VALUES = Map.of(
            "id", "q-1", "label", "lbl", "note", "nt", "qty", 7, "currency", "EUR", "priceMicros", 1_234_500L);

    private static final Map<String, URLClassLoader> LOADERS = new LinkedHashMap<>();
    private static final Map<String, String> MATRIX = new TreeMap<>();
    private static Path classesRoot;

    @BeforeAll
    static void compileVersions() throws Exception {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        classesRoot = Files.createTempDirectory("kestrel-compat");
        for (String version : VERSIONS) {
            Path src = classesRoot.resolve("src-" + version + "/Quote.java");
            Files.createDirectories(src.getParent());
            try (InputStream in = CompatibilityMatrixTest.class.getResourceAsStream("/compat/" + version + "/Quote.java")) {
                Files.copy(Objects.requireNonNull(in, "source of " + version), src);
            }
            Path out = classesRoot.resolve("classes-" + version);
            Files.createDirectories(out);
            int rc = javac.run(null, null, null, "-d", out.toString(), "--release", "17", "-nowarn", src.toString());
            assertEquals(0, rc, "javac failed for " + version);
            LOADERS.put(version, new URLClassLoader("compat-" + version, new URL[] {out.toUri().toURL()},
                    CompatibilityMatrixTest.class.getClassLoader()));
        }
        assertThrows(ClassNotFoundException.class, () -> Class.forName(DTO, false, CompatibilityMatrixTest.class.getClassLoader()),
                "the DTO must not be visible to the test loader itself");
    }

    @AfterAll
    static void closeLoadersAndPrintMatrix() throws IOException {
        StringBuilder sb = new StringBuilder("compatibility matrix (writer->reader: outcome):");
        MATRIX.forEach((k, v) -> sb.append("\n  ").append(k).append(": ").append(v));
        log.warn(sb.toString());
        for (URLClassLoader l : LOADERS.values()) {
            l.close();
        }
    }

    static Stream<Arguments> compatibleCases() {
        List<Arguments> args = new ArrayList<>();
        for (String name : List.of("kryo", "hessian2", "fastjson2", "fory")) {
            for (String[] c : CASES) {
                args.add(Arguments.of(name, c[0], c[1]));
            }
        }
        return args.stream();
    }

    @ParameterizedTest(name = "{0} compatible {1} -> {2}")
    @MethodSource("compatibleCases")
    void compatibleModeKeepsCommonFieldsAndDefaultsTheRest(String name, String writer, String reader) throws Exception {
        Serialization s = Serializations.installed().byName(name);
        Object written = newQuote(writer);
        Object read = read(s, true, reader, write(s, true, writer, written));
        assertSame(loadDto(reader), read.getClass(), "the reader's own version of the class");
        Map<String, Object> expected = expectedFields(written, reader);
        Map<String, Object> actual = fields(read);
        MATRIX.put(name + "-compatible " + writer + "->" + reader, expected.equals(actual) ? "ok" : "WRONG " + actual);
        assertEquals(expected, actual, name + " compatible " + writer + " -> " + reader);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusing")
    void fstAndJavaRefuseCompatibleModeAtCreate(String name) {
        Serialization s = Serializations.installed().byName(name);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> s.create(options(true)));
        assertTrue(e.getMessage().contains("use kryo, hessian2 or fastjson2 with compatible=true"), e.getMessage());
        assertTrue(e.getMessage().startsWith(name.equals("fst") ? "fst cannot tolerate field changes between versions"
                : "java serialization does not support compatible mode"), e.getMessage());
        MATRIX.put(name + "-compatible", "refused at create(): " + e.getMessage());
    }

    static Stream<String> refusing() {
        return Stream.of("fst", "java");
    }

    /**
     * Plain (non-compatible) mode on a changed class: the outcome is recorded per serialization and
     * case. It must be a {@link SerializationException} or correct values; the only exceptions are
     * the hazards pinned in {@link #KNOWN_SILENT_MISREADS}, which this test also asserts still happen
     * exactly there (so a fix shows up as a failing test to update).
     */
    @Test
    void plainModeOnAChangedClassFailsOrIsCorrectExceptKnownHazards() throws Exception {
        Map<String, String> wrong = new TreeMap<>();
        for (String name : List.of("kryo", "fory", "fst", "java", "hessian2", "fastjson2")) {
            Serialization s = Serializations.installed().byName(name);
            for (String[] c : CASES) {
                String key = name + "-plain " + c[0] + "->" + c[1];
                Object written = newQuote(c[0]);
                String outcome;
                try {
                    Object read = read(s, false, c[1], write(s, false, c[0], written));
                    Map<String, Object> expected = expectedFields(written, c[1]);
                    Map<String, Object> actual = read.getClass() == loadDto(c[1]) ? fields(read) : Map.of("class", read.getClass());
                    outcome = expected.equals(actual) ? "ok" : "WRONG " + actual;
                    if (!expected.equals(actual)) {
                        wrong.put(key, actual.toString());
                    }
                } catch (SerializationException e) {
                    outcome = "fails: " + e.getMessage().substring(0, Math.min(160, e.getMessage().length()));
                }
                MATRIX.put(key, outcome);
            }
        }
        assertEquals(KNOWN_SILENT_MISREADS, wrong.keySet(), "silent misreads in plain mode: " + wrong);
    }

    /**
     * The README's claim, exactly: fory's plain mode (the default) fails loudly when a field was added or
     * removed between writer and reader, in both directions, and reads a class whose fields were only
     * declared in another order correctly (fory orders fields itself, so the schema is the same).
     */
    @ParameterizedTest(name = "fory plain {0} -> {1}")
    @MethodSource("caseArguments")
    void foryPlainModeFailsLoudlyOnAChangedClassAndReadsAReorderedOne(String writer, String reader) throws Exception {
        Serialization fory = Serializations.installed().byName("fory");
        Object written = newQuote(writer);
        byte[] bytes = write(fory, false, writer, written);
        if (writer.equals("reordered") || reader.equals("reordered")) {
            Object read = read(fory, false, reader, bytes);
            assertSame(loadDto(reader), read.getClass());
            assertEquals(expectedFields(written, reader), fields(read));
        } else {
            SerializationException e = assertThrows(SerializationException.class, () -> read(fory, false, reader, bytes),
                    "fory plain mode read a changed class without an error");
            assertTrue(e.getMessage().startsWith("fory could not deserialize") && e.getMessage().contains(DTO)
                    && e.getMessage().contains("version"), e.getMessage());
        }
    }

    static Stream<Arguments> caseArguments() {
        return CASES.stream().map(c -> Arguments.of(c[0], c[1]));
    }

    /**
     * Known hazard: kryo's default {@code FieldSerializer} (plain mode) writes fields in name order
     * with no schema information, so a reader whose class gained or lost a field reads the following
     * values into the wrong fields and reports no error (observed: {@code id=EUR, label=q-1,
     * note=lbl, qty=-1}). Use compatible mode (or fory) whenever writer and reader may run different
     * versions of a class.
     */
    private static final java.util.Set<String> KNOWN_SILENT_MISREADS = java.util.Set.of(
            "kryo-plain added->v1", "kryo-plain v1->removed");

    /**
     * fory picks its engine by the calling thread's context class loader, so one serializer instance
     * serves a writer and a reader in different loaders (the others bind to the context loader at
     * {@code create()}, as the matrix above does per side).
     */
    @Test
    void oneForyInstanceFollowsTheContextClassLoaderPerCall() throws Exception {
        Serializer fory = Serializations.installed().byName("fory").create(options(true));
        Object written = newQuote("v1");
        byte[] bytes = inLoader("v1", () -> {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            fory.serialize(written, out);
            return out.toByteArray();
        });
        Object read = inLoader("added", () -> fory.deserialize(new ByteArrayInputStream(bytes), Object.class));
        assertSame(loadDto("added"), read.getClass());
        assertEquals(expectedFields(written, "added"), fields(read));
    }

    // ---- helpers -------------------------------------------------------------------------------

    static SerializationOptions options(boolean compatible) {
        return SerializationOptions.builder()
                .allowlist(ClassAllowlist.withDefaults().allowPackage(DTO_PACKAGE))
                .compatible(compatible)
                .build();
    }

    /** Runs {@code body} with the thread context class loader of the given version. */
    static <T> T inLoader(String version, Callable<T> body) throws Exception {
        Thread t = Thread.currentThread();
        ClassLoader previous = t.getContextClassLoader();
        t.setContextClassLoader(LOADERS.get(version));
        try {
            return body.call();
        } finally {
            t.setContextClassLoader(previous);
        }
    }

    static byte[] write(Serialization s, boolean compatible, String version, Object value) throws Exception {
        return inLoader(version, () -> {
            Serializer serializer = s.create(options(compatible));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            serializer.serialize(value, out);
            return out.toByteArray();
        });
    }

    static Object read(Serialization s, boolean compatible, String version, byte[] bytes) throws Exception {
        return inLoader(version, () -> s.create(options(compatible)).deserialize(new ByteArrayInputStream(bytes), Object.class));
    }

    static Class<?> loadDto(String version) throws ClassNotFoundException {
        return Class.forName(DTO, false, LOADERS.get(version));
    }

    static Object newQuote(String version) throws Exception {
        Object q = loadDto(version).getConstructor().newInstance();
        for (Field f : instanceFields(q.getClass())) {
            f.set(q, VALUES.get(f.getName()));
        }
        return q;
    }

    /** For each field of the reader's version: the writer's value if the writer has the field, else the default. */
    static Map<String, Object> expectedFields(Object written, String readerVersion) throws Exception {
        Map<String, Object> writerFields = fields(written);
        Map<String, Object> expected = new TreeMap<>();
        for (Field f : instanceFields(loadDto(readerVersion))) {
            Object dflt = f.getType() == int.class ? (Object) 0 : f.getType() == long.class ? (Object) 0L : null;
            expected.put(f.getName(), writerFields.containsKey(f.getName()) ? writerFields.get(f.getName()) : dflt);
        }
        return expected;
    }

    static Map<String, Object> fields(Object o) throws IllegalAccessException {
        Map<String, Object> m = new TreeMap<>();
        for (Field f : instanceFields(o.getClass())) {
            m.put(f.getName(), f.get(o));
        }
        return m;
    }

    private static List<Field> instanceFields(Class<?> c) {
        List<Field> list = new ArrayList<>();
        for (Field f : c.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers())) {
                list.add(f);
            }
        }
        return list;
    }
}
