package io.kestrel.rpc.guards;

import static org.junit.jupiter.api.Assertions.fail;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The public API of rpc-api and of the runtime ({@code io.kestrel.rpc.core} and its cluster package), listed type
 * by type and member by member, against the listing checked in under {@code src/test/resources/api/}. A change to
 * the API fails here until the listing is updated in the same commit, so every API change is made on purpose and
 * shows in review. {@code -Dkestrel.api.update=true} rewrites the listings.
 */
class PublicApiTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "rpc-api, io.kestrel.rpc.api",
            "runtime, io.kestrel.rpc.core"})
    void publicApiMatchesTheCheckedInListing(String name, String rootPackage) throws IOException {
        List<String> actual = listing(rootPackage);
        Path checkedIn = Path.of("src/test/resources/api", name + ".txt");
        if (Boolean.getBoolean("kestrel.api.update")) {
            Files.createDirectories(checkedIn.getParent());
            Files.write(checkedIn, actual);
            return;
        }
        List<String> expected = Files.exists(checkedIn) ? Files.readAllLines(checkedIn) : List.of();
        if (expected.equals(actual)) {
            return;
        }
        Path written = Path.of("target/api", name + ".txt");
        Files.createDirectories(written.getParent());
        Files.write(written, actual);
        TreeSet<String> added = new TreeSet<>(actual);
        added.removeAll(expected);
        TreeSet<String> removed = new TreeSet<>(expected);
        removed.removeAll(actual);
        StringBuilder report = new StringBuilder("The public API of " + rootPackage + " changed. If on purpose, update"
                + " the listing: cp tests/kestrel-guards/" + written + " tests/kestrel-guards/" + checkedIn
                + " (or run this test with -Dkestrel.api.update=true).");
        added.stream().limit(40).forEach(line -> report.append("\n  + ").append(line.strip()));
        removed.stream().limit(40).forEach(line -> report.append("\n  - ").append(line.strip()));
        fail(report.toString());
    }

    /** Every public type under {@code rootPackage} but its internal packages, with its public and protected members. */
    private static List<String> listing(String rootPackage) {
        TreeSet<String> typeNames = new TreeSet<>();
        for (JavaClass type : new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(rootPackage)) {
            if (!type.getPackageName().contains(".internal") && !type.getPackageName().startsWith("io.kestrel.rpc.guards")) {
                typeNames.add(type.getName());
            }
        }
        List<String> lines = new ArrayList<>();
        for (String typeName : typeNames) {
            Class<?> type = load(typeName);
            if (!isVisible(type)) {
                continue;
            }
            lines.add(describe(type));
            TreeSet<String> members = new TreeSet<>();
            Stream.of(type.getDeclaredConstructors()).filter(PublicApiTest::isApi)
                    .forEach(c -> members.add("  " + c.toGenericString()));
            Stream.of(type.getDeclaredMethods()).filter(m -> isApi(m) && !m.isBridge())
                    .forEach(m -> members.add("  " + m.toGenericString()));
            Stream.of(type.getDeclaredFields()).filter(PublicApiTest::isApi)
                    .forEach(f -> members.add("  " + describe(f)));
            lines.addAll(members);
        }
        return lines;
    }

    private static boolean isVisible(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getDeclaringClass()) {
            if (!Modifier.isPublic(c.getModifiers()) || c.isAnonymousClass() || c.isLocalClass() || c.isSynthetic()) {
                return false;
            }
        }
        return true;
    }

    private static boolean isApi(Member member) {
        int modifiers = member.getModifiers();
        boolean synthetic = member instanceof Executable e ? e.isSynthetic() : ((Field) member).isSynthetic();
        return !synthetic && (Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers));
    }

    private static String describe(Class<?> type) {
        String kind = type.isAnnotation() ? "@interface" : type.isInterface() ? "interface" : type.isEnum() ? "enum"
                : type.isRecord() ? "record" : "class";
        int modifiers = type.getModifiers() & ~(Modifier.INTERFACE | Modifier.STATIC);
        if (type.isInterface() || type.isEnum() || type.isRecord()) {
            modifiers &= ~(Modifier.ABSTRACT | Modifier.FINAL);
        }
        StringBuilder line = new StringBuilder(Modifier.toString(modifiers)).append(' ').append(kind).append(' ')
                .append(type.getName());
        if (type.getGenericSuperclass() != null && type.getSuperclass() != Object.class && !type.isEnum()
                && !type.isRecord()) {
            line.append(" extends ").append(type.getGenericSuperclass().getTypeName());
        }
        TreeSet<String> interfaces = new TreeSet<>();
        Stream.of(type.getGenericInterfaces()).forEach(i -> interfaces.add(i.getTypeName()));
        if (!interfaces.isEmpty()) {
            line.append(type.isInterface() ? " extends " : " implements ").append(String.join(", ", interfaces));
        }
        return line.toString();
    }

    private static String describe(Field field) {
        return Modifier.toString(field.getModifiers()) + " " + field.getGenericType().getTypeName() + " "
                + field.getName();
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, PublicApiTest.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(name + " was imported from the class path but cannot be loaded", e);
        }
    }
}
