package io.kestrel.rpc.api.serialization;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ClassNotAllowedException;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClassAllowlistTest {
    public static class Inner {
        public Leaf leaf;
        public List<Map<String, Leaf2>> nested;
    }

    public static class Leaf {
        public int x;
    }

    public static class Leaf2 {
        public String y;
    }

    public static class Unrelated {
    }

    interface Api {
        Inner get(BigDecimal id);
    }

    @Test
    void jdkValuesCollectionsEnumsAndExceptionsAreAllowed() {
        ClassAllowlist a = ClassAllowlist.withDefaults();
        for (String name : List.of("java.lang.String", "java.util.ArrayList", "java.util.HashMap", "java.math.BigDecimal",
                "java.time.LocalDateTime", "java.lang.ArithmeticException", "java.lang.RuntimeException",
                "java.lang.IllegalStateException", "java.util.concurrent.TimeUnit", "[Ljava.lang.String;", "[I",
                "java.util.ImmutableCollections$ListN", "java.io.UncheckedIOException")) {
            assertTrue(a.isAllowed(name), name);
        }
    }

    @Test
    void gadgetsAreRefusedEvenWhenTheirPackageIsAllowed() {
        ClassAllowlist a = ClassAllowlist.withDefaults().allowPackage("org.apache.commons").allowPackage("com.sun");
        for (String name : List.of("org.apache.commons.collections.functors.InvokerTransformer",
                "com.sun.org.apache.xalan.internal.xsltc.trax.TemplatesImpl", "javax.naming.InitialContext",
                "java.lang.Runtime", "java.lang.ProcessBuilder", "java.net.URL", "javax.management.BadAttributeValueExpException",
                "java.lang.reflect.Proxy", "com.sun.rowset.JdbcRowSetImpl")) {
            assertFalse(a.isAllowed(name), name);
        }
        ClassNotAllowedException e = assertThrows(ClassNotAllowedException.class,
                () -> a.check("org.apache.commons.collections.functors.InvokerTransformer"));
        assertTrue(e.getMessage().contains("known deserialization gadget"), e.getMessage());
    }

    @Test
    void refusalNamesTheClassAndTheSettingThatAllowsIt() {
        ClassNotAllowedException e = assertThrows(ClassNotAllowedException.class,
                () -> ClassAllowlist.withDefaults().check("com.example.model.Order"));
        assertTrue(e.getMessage().contains("com.example.model.Order"));
        assertTrue(e.getMessage().contains("allowed-packages=\"com.example.model\""), e.getMessage());
    }

    @Test
    void typesReachableFromAServiceInterfaceAreTrusted() {
        ClassAllowlist a = ClassAllowlist.withDefaults().trustTypesOf(Api.class);
        assertTrue(a.isAllowed(Inner.class.getName()));
        assertTrue(a.isAllowed(Leaf.class.getName()), "field type");
        assertTrue(a.isAllowed(Leaf2.class.getName()), "type argument of a field");
        assertFalse(a.isAllowed(Unrelated.class.getName()));
    }

    @Test
    void userPackageMatchesWholeSegmentsOnly() {
        ClassAllowlist a = ClassAllowlist.withDefaults().allowPackage("com.example.model");
        assertTrue(a.isAllowed("com.example.model.Order"));
        assertTrue(a.isAllowed("com.example.model.sub.Line"));
        assertFalse(a.isAllowed("com.example.modelx.Evil"));
    }

    /** An exception no signature names, in the same class directory as {@link Api}, with a field of its own type. */
    public static class ApiRejected extends RuntimeException {
        private static final long serialVersionUID = 1L;
        public Detail detail;
    }

    public static class Detail {
        public String reason;
    }

    @Test
    void exceptionsOfTheInterfacesCodeSourceAreAllowedWithTheirFieldTypesOthersAreNot() {
        ClassAllowlist a = ClassAllowlist.withDefaults();
        assertFalse(a.isAllowed(ApiRejected.class.getName()), "not before an interface of its code source is trusted");
        a.trustTypesOf(Api.class);
        assertTrue(a.isAllowed(ApiRejected.class.getName()));
        assertTrue(a.isAllowed(Detail.class.getName()), "field types of an allowed exception");
        // same code source but not an exception: still refused
        assertFalse(a.isAllowed(Unrelated.class.getName()));
        // an exception from another code source (the JUnit jar): refused
        assertFalse(a.isAllowed("org.opentest4j.AssertionFailedError"));
        assertFalse(a.isAllowed("com.example.DoesNotExist"));
    }
}
