package io.kestrel.rpc.guards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The BOM names every published module of the reactor and nothing else. A module is published unless its POM sets
 * {@code maven.deploy.skip} (the demos, benchmarks and test-only modules do), so adding a module means deciding.
 */
class BomTest {

    @Test
    void bomListsExactlyThePublishedJarModules() {
        Path root = ReactorPoms.root();
        List<ReactorPoms.Module> modules = ReactorPoms.modules(root);
        TreeSet<String> published = new TreeSet<>();
        for (ReactorPoms.Module module : modules) {
            if (module.published() && module.packaging().equals("jar")) {
                published.add(module.artifactId());
            }
        }
        assertTrue(published.contains("rpc-api") && published.contains("rpc-core"),
                "the reactor's published modules were not found: " + modules);
        TreeSet<String> inBom = new TreeSet<>(ReactorPoms.managedArtifacts(root.resolve("kestrel-bom/pom.xml"), "io.kestrel"));

        TreeSet<String> missing = new TreeSet<>(published);
        missing.removeAll(inBom);
        TreeSet<String> extra = new TreeSet<>(inBom);
        extra.removeAll(published);
        assertEquals(published, inBom, "kestrel-bom/pom.xml must manage every published module and only those;"
                + " missing " + missing + ", not published " + extra + ". Add the module to the BOM, or mark a"
                + " module that is not an artifact for users with <maven.deploy.skip>true</maven.deploy.skip>");
    }
}
