package io.kestrel.rpc.api.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExtensionPointTest {
    private static final ExtensionPoint<Greeter> GREETERS = ExtensionPoint.of(Greeter.class, "greeter",
            Greeter::name, "Check the greeting setting.");

    @TempDir
    Path dir;

    @Test
    void implementationsAreFoundByNameCaseInsensitively() throws Exception {
        Extensions<Greeter> found = withContextLoader(null, GREETERS::installed);
        assertEquals(Set.of("hello", "bonjour"), found.names());
        assertInstanceOf(Greeter.Hello.class, found.get(" HELLO "));
        assertInstanceOf(Greeter.Bonjour.class, found.get("bonjour"));
        assertSame(found.get("hello"), found.get("hello"), "get shares one instance");
        assertNotSame(found.create("hello"), found.create("hello"), "create makes a fresh one");
        assertTrue(found.find("nope").isEmpty());
    }

    @Test
    void unknownNameListsTheKnownOnesAndSuggestsACloseOne() {
        Extensions<Greeter> found = GREETERS.installed();
        IllegalArgumentException typo = assertThrows(IllegalArgumentException.class, () -> found.get("helo"));
        assertEquals("Unknown greeter 'helo'; known: [bonjour, hello]; did you mean 'hello'? Check the greeting"
                + " setting.", typo.getMessage());
        IllegalArgumentException other = assertThrows(IllegalArgumentException.class, () -> found.create("ciao"));
        assertEquals("Unknown greeter 'ciao'; known: [bonjour, hello]. Check the greeting setting.", other.getMessage());

        IllegalArgumentException labelled = assertThrows(IllegalArgumentException.class,
                () -> GREETERS.listedAs(g -> g.name() + "=1").installed().get("ciao"));
        assertTrue(labelled.getMessage().startsWith("Unknown greeter 'ciao'; known: [Bonjour=1, hello=1]."),
                labelled.getMessage());
    }

    @Test
    void duplicateNamesAreRefusedNamingBothClasses() {
        ExtensionPoint<Twin> twins = ExtensionPoint.of(Twin.class, "twin", Twin::name, "");
        IllegalStateException e = assertThrows(IllegalStateException.class, twins::installed);
        assertTrue(e.getMessage().startsWith("Two twin implementations are named 'same': "
                + Twin.First.class.getName()), e.getMessage());
        assertTrue(e.getMessage().contains(Twin.Second.class.getName()), e.getMessage());
        assertTrue(e.getMessage().contains("META-INF/services/" + Twin.class.getName()), e.getMessage());
    }

    @Test
    void theContextClassLoaderIsUsedWhenItSeesTheSpiAndCachedPerLoader() throws Exception {
        URL extra = servicesDir(Greeter.Hola.class.getName());
        try (URLClassLoader child = new URLClassLoader(new URL[] {extra}, Greeter.class.getClassLoader())) {
            Extensions<Greeter> viaContext = withContextLoader(child, GREETERS::installed);
            assertEquals(Set.of("hello", "bonjour", "hola"), viaContext.names());
            assertSame(child, viaContext.loader());
            assertSame(viaContext, withContextLoader(child, GREETERS::installed), "loaded once per loader");

            Extensions<Greeter> own = withContextLoader(null, GREETERS::installed);
            assertFalse(own.names().contains("hola"), "without a context loader only the SPI's own loader counts");
            assertSame(Greeter.class.getClassLoader(), own.loader());
        }
    }

    @Test
    void aContextClassLoaderThatDoesNotSeeTheSpiFallsBackToTheSpisLoader() throws Exception {
        URL extra = servicesDir(Greeter.Hola.class.getName());
        try (URLClassLoader isolated = new URLClassLoader(new URL[] {extra}, null)) {
            Extensions<Greeter> found = withContextLoader(isolated, GREETERS::installed);
            assertEquals(Set.of("hello", "bonjour"), found.names());
            assertSame(Greeter.class.getClassLoader(), found.loader());
        }
    }

    @Test
    void distanceCountsTyposIncludingSwappedLetters() {
        assertEquals(0, Extensions.distance("kryo", "kryo"));
        assertEquals(1, Extensions.distance("kyro", "kryo"));
        assertEquals(1, Extensions.distance("round-robin", "roundrobin"));
        assertEquals(4, Extensions.distance("java", "fory"));
    }

    /** A directory holding only {@code META-INF/services/<Greeter>} listing {@code className}. */
    private URL servicesDir(String className) throws IOException {
        Path services = Files.createDirectories(dir.resolve("META-INF/services"));
        Files.writeString(services.resolve(Greeter.class.getName()), className + "\n", StandardCharsets.UTF_8);
        return dir.toUri().toURL();
    }

    private static <T> T withContextLoader(ClassLoader loader, Callable<T> action) throws Exception {
        Thread t = Thread.currentThread();
        ClassLoader previous = t.getContextClassLoader();
        t.setContextClassLoader(loader);
        try {
            return action.call();
        } finally {
            t.setContextClassLoader(previous);
        }
    }
}
