package io.kestrel.rpc.guards;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.kestrel.rpc.api.PermissionDeniedException;
import io.kestrel.rpc.api.UnauthenticatedException;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The dependency directions of DESIGN.md, checked on the compiled main classes of every module (ArchUnit): an arrow
 * never points up, rpc-api stays free of Netty, Spring and ZooKeeper, and a module's {@code internal} packages are
 * its own. Where today's code still crosses a line, the crossing classes are listed here by name: the test fails
 * when a new one appears and when a listed one stops crossing (then take it off the list), so the list only shrinks.
 */
class LayeringTest {

    private static final String ROOT = "io.kestrel.rpc";
    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(ROOT);
        // a sanity check that the import saw every layer (an empty import would pass every rule)
        for (String layer : new String[] {"api", "serialization", "transport", "registry", "registry.embedded", "core",
                "spring", "console", "observability", "perf"}) {
            if (main.stream().noneMatch(c -> c.getPackageName().startsWith(ROOT + "." + layer))) {
                throw new AssertionError("no class of " + ROOT + "." + layer + " on the test class path");
            }
        }
    }

    @Test
    void apiDependsOnTheJdkAndSlf4jOnly() {
        classes().that().resideInAPackage(ROOT + ".api..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "javax.annotation..", "org.slf4j..",
                        ROOT + ".api..", "")
                .because("rpc-api is what applications compile against: no Netty, Spring, ZooKeeper or serializer types")
                .check(main);
    }

    @Test
    void transportKnowsNothingOfTheLayersAboveOrOfSpringAndZooKeeper() {
        noClasses().that().resideInAPackage(ROOT + ".transport..")
                .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".core..", ROOT + ".registry..",
                        ROOT + ".spring..", ROOT + ".console..", ROOT + ".observability..", "org.springframework..",
                        "org.apache.curator..", "org.apache.zookeeper..")
                .check(main);
    }

    @Test
    void registryKnowsNothingOfNettyOrTheTransport() {
        noClasses().that().resideInAPackage(ROOT + ".registry..")
                .should().dependOnClassesThat().resideInAnyPackage("io.netty..", ROOT + ".transport..",
                        ROOT + ".core..", ROOT + ".spring..", "org.springframework..")
                .check(main);
    }

    @Test
    void onlyTheEmbeddedRegistryRunsAZooKeeperServer() {
        noClasses().that().resideInAPackage(ROOT + ".registry..").and()
                .resideOutsideOfPackage(ROOT + ".registry.embedded..")
                .should().dependOnClassesThat().resideInAnyPackage("org.apache.zookeeper.server..",
                        ROOT + ".registry.embedded..")
                .because("rpc-registry holds the ZooKeeper client; the embedded server, its host lock, secret and"
                        + " access rules are rpc-registry-embedded's, found through EmbeddedRegistryProvider")
                .check(main);
    }

    @Test
    void theTransportCarriesTheCallersIdentityAndDoesNotDecideWhoMayCall() {
        // Status (io.kestrel.rpc.transport) maps the refusal statuses back to these exceptions on the consumer side
        noClasses().that().resideInAnyPackage(ROOT + ".transport.spi..", ROOT + ".transport.internal..")
                .should().dependOnClassesThat().belongToAnyOf(UnauthenticatedException.class,
                        PermissionDeniedException.class)
                .because("who may call a method is rpc-core's rule (ServerMethod.admit); the transport hands it the"
                        + " connection's identity and answers a refusal with the status it carries")
                .check(main);
    }

    @Test
    void serializationKnowsOnlyTheApi() {
        noClasses().that().resideInAPackage(ROOT + ".serialization..")
                .should().dependOnClassesThat().resideInAnyPackage("io.netty..", ROOT + ".transport..",
                        ROOT + ".registry..", ROOT + ".core..", ROOT + ".spring..", "org.springframework..")
                .check(main);
    }

    @Test
    void coreFindsRegistryAndSerializationsThroughTheSpisOnly() {
        noClasses().that().resideInAPackage(ROOT + ".core..")
                .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".registry..", ROOT + ".serialization..",
                        ROOT + ".spring..", ROOT + ".console..", ROOT + ".observability..", "org.springframework..",
                        "org.apache.curator..", "org.apache.zookeeper..")
                .because("rpc-core has rpc-registry and rpc-serialization at runtime scope, found through ServiceLoader")
                .check(main);
    }

    @Test
    void theTransportsInternalsAreUsedOnlyByTheTransport() {
        // other modules reach the transport through io.kestrel.rpc.transport and its seam, transport.spi
        noClasses().that().resideOutsideOfPackage(ROOT + ".transport..")
                .should().dependOnClassesThat().resideInAPackage(ROOT + ".transport.internal..")
                .because("the transport's internals are its own; rpc-core plugs in through io.kestrel.rpc.transport.spi")
                .check(main);
    }

    @Test
    void theCoresConsumerAndProviderSidesDoNotImportEachOther() {
        noClasses().that().resideInAPackage(ROOT + ".core.internal.consumer..")
                .should().dependOnClassesThat().resideInAPackage(ROOT + ".core.internal.provider..")
                .because("the consumer learns about a provider from the wire and the registry, never from its classes")
                .check(main);
        noClasses().that().resideInAPackage(ROOT + ".core.internal.provider..")
                .should().dependOnClassesThat().resideInAPackage(ROOT + ".core.internal.consumer..")
                .check(main);
        noClasses().that().resideInAnyPackage(ROOT + ".core.internal.shared..", ROOT + ".core.internal.generic..")
                .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".core.internal.consumer..",
                        ROOT + ".core.internal.provider..")
                .because("what both sides share depends on neither")
                .check(main);
    }

    @Test
    void theCoresInternalsAreUsedOnlyByTheCore() {
        assertOnlyListedCross(ROOT + ".core", ROOT + ".core.internal", Set.of());
    }

    @Test
    void otherModulesInternalsAreTheirOwn() {
        // rpc-api's internal package is the one shared on purpose: helpers the framework's modules use, not users
        for (String module : new String[] {"serialization", "registry", "spring", "console", "observability"}) {
            assertOnlyListedCross(ROOT + "." + module, ROOT + "." + module + ".internal", Set.of());
        }
    }

    /**
     * Asserts that the top-level classes outside {@code owner} that use a class of {@code internal} are exactly
     * {@code known}.
     */
    private static void assertOnlyListedCross(String owner, String internal, Set<String> known) {
        Set<String> crossing = new TreeSet<>();
        for (JavaClass origin : main) {
            if (inPackage(origin.getPackageName(), owner)) {
                continue;
            }
            boolean uses = origin.getDirectDependenciesFromSelf().stream()
                    .anyMatch(d -> inPackage(d.getTargetClass().getPackageName(), internal));
            if (uses) {
                crossing.add(topLevel(origin.getName()));
            }
        }
        assertEquals(new TreeSet<>(known), crossing, "classes outside " + owner + " that use " + internal + ".*: a new"
                + " one must use a public type instead (or the owner must offer one); one that no longer does must be"
                + " taken off the list in " + LayeringTest.class.getSimpleName());
    }

    private static boolean inPackage(String name, String pkg) {
        return name.equals(pkg) || name.startsWith(pkg + ".");
    }

    private static String topLevel(String className) {
        int dollar = className.indexOf('$');
        return dollar < 0 ? className : className.substring(0, dollar);
    }
}
