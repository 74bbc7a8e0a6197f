package io.kestrel.rpc.spring.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.kestrel.rpc.spring.RpcReference;
import io.kestrel.rpc.spring.RpcService;
import io.kestrel.rpc.spring.fixture.GreetingService;
import io.kestrel.rpc.spring.fixture.GreetingServiceImpl;
import io.kestrel.rpc.spring.internal.Settings.Setting;
import io.kestrel.rpc.spring.internal.Settings.Where;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The settings table ({@link Settings}) against the surfaces that declare settings again: the XSD's attributes,
 * types and defaults, what the binder reads, the builders' defaults, the annotations' attributes and the table in
 * docs/configuration.md. A setting added to one of them and not to the table fails here, naming it.
 */
class SettingsTableTest {
    private static final String XSD_NS = "http://www.w3.org/2001/XMLSchema";
    /** Attributes that name beans and types rather than set anything. */
    private static final Set<String> STRUCTURAL = Set.of("id", "interface", "ref");
    private static final GreetingServiceImpl IMPL = new GreetingServiceImpl("t");
    private static final List<String> ELEMENTS = List.of("application", "registry", "protocol", "service", "reference", "console");

    @Test
    void theXsdDeclaresExactlyTheXmlSettingsWithTheirTypesAndDefaults() throws Exception {
        Document xsd;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/kestrel-rpc.xsd")) {
            assertNotNull(in);
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            xsd = f.newDocumentBuilder().parse(in);
        }
        Map<String, Element> groups = new HashMap<>();
        NodeList groupNodes = xsd.getElementsByTagNameNS(XSD_NS, "attributeGroup");
        for (int i = 0; i < groupNodes.getLength(); i++) {
            Element g = (Element) groupNodes.item(i);
            if (g.hasAttribute("name")) {
                groups.put(g.getAttribute("name"), g);
            }
        }
        Set<String> elements = new TreeSet<>();
        NodeList elementNodes = xsd.getElementsByTagNameNS(XSD_NS, "element");
        for (int i = 0; i < elementNodes.getLength(); i++) {
            Element el = (Element) elementNodes.item(i);
            String name = el.getAttribute("name");
            elements.add(name);
            Map<String, Element> declared = new TreeMap<>();
            collectAttributes(el, groups, declared);
            STRUCTURAL.forEach(declared::remove);
            assertEquals(new TreeSet<>(Settings.names(name, Where.XML)), declared.keySet(),
                    "attributes of <rpc:" + name + "> in the XSD vs the settings table (settings.txt)");
            for (Element a : declared.values()) {
                Setting s = setting(name, a.getAttribute("name"), Where.XML);
                if (a.getAttribute("type").equals("durationType")) {
                    assertEquals("duration", s.type(), s.key() + ": the XSD says durationType");
                }
                if (a.hasAttribute("default")) {
                    assertEquals(a.getAttribute("default"), s.defaultValue(), s.key() + ": default in the XSD");
                } else if (s.hasFixedDefault()) {
                    String doc = a.getTextContent();
                    String value = Pattern.quote(s.defaultValue());
                    assertTrue(Pattern.compile("[Dd]efault:? (property rpc\\S+, else )?\"?" + value + "\\b|\\b" + value
                            + "\"? \\(default").matcher(doc).find(), "<rpc:" + name + " " + s.name() + ">: the XSD's documentation does not give the"
                            + " table's default " + s.defaultValue() + ": " + doc.strip());
                }
            }
        }
        assertTrue(elements.containsAll(ELEMENTS), "elements " + elements);
    }

    private static void collectAttributes(Element parent, Map<String, Element> groups, Map<String, Element> into) {
        NodeList attrs = parent.getElementsByTagNameNS(XSD_NS, "attribute");
        for (int i = 0; i < attrs.getLength(); i++) {
            Element a = (Element) attrs.item(i);
            into.put(a.getAttribute("name"), a);
        }
        NodeList refs = parent.getElementsByTagNameNS(XSD_NS, "attributeGroup");
        for (int i = 0; i < refs.getLength(); i++) {
            Element ref = (Element) refs.item(i);
            if (ref.hasAttribute("ref")) {
                collectAttributes(groups.get(ref.getAttribute("ref")), groups, into);
            }
        }
    }

    @Test
    void theBinderReadsEveryDeclaredSettingAndNoOther() {
        assertEquals(Set.copyOf(Settings.names("application", Where.XML)), asked(src -> ConfigBinder.application(src, "x")));
        assertEquals(Set.copyOf(Settings.names("registry", Where.XML)), asked(ConfigBinder::registry));
        Set<String> protocol = new TreeSet<>(asked(src -> ConfigBinder.protocol(src, loader())));
        assertTrue(protocol.remove("tls-verify-hostname"), "TLS binding reads one list for both sides"); // unsettable there
        assertEquals(new TreeSet<>(Settings.names("protocol", Where.XML)), protocol);
        assertEquals(Settings.names("protocol", Where.XML), Settings.names("protocol", Where.ENV),
                "rpc.protocol.* is <rpc:protocol> written in the Environment");
        assertEquals(Settings.names("registry", Where.XML), Settings.names("registry", Where.ENV));

        Set<String> service = new TreeSet<>();
        Set<String> serviceDefaults = new TreeSet<>();
        ConfigBinder.service(ConfigSource.recording("s", Map.of(), service),
                ConfigSource.recording("d", Map.of(), serviceDefaults), GreetingService.class, IMPL);
        assertEquals(new TreeSet<>(Settings.names("service", Where.XML)), service);
        assertEquals(new TreeSet<>(Settings.names("service", Where.ENV)), serviceDefaults);

        Set<String> reference = new TreeSet<>();
        Set<String> referenceDefaults = new TreeSet<>();
        ReferenceBinding.reference(ConfigSource.recording("r", Map.of("check", "false"), reference),
                ConfigSource.recording("d", Map.of(), referenceDefaults), GreetingService.class, loader());
        Set<String> xml = new TreeSet<>(Settings.names("reference", Where.XML));
        assertTrue(xml.remove("generic"), "generic chooses the bean's type: ReferenceBean reads it");
        assertTrue(reference.remove("tls-client-auth"), "read to refuse it, pointing to <rpc:protocol>");
        assertEquals(xml, reference);
        assertTrue(referenceDefaults.remove("tls-client-auth"), "likewise");
        assertEquals(new TreeSet<>(Settings.names("reference", Where.ENV)), referenceDefaults);
    }

    @Test
    void fixedDefaultsAreTheDefaultsOfTheBuilders() {
        int checked = 0;
        for (Setting s : Settings.all()) {
            if (!s.hasFixedDefault() || !s.where().contains(Where.XML) || s.name().equals("generic")
                    && s.element().equals("reference")) {
                continue;
            }
            Map<String, String> base = new LinkedHashMap<>();
            if (s.name().startsWith("tls-")) { // TLS is off unless a tls-* attribute is set
                if (s.element().equals("protocol")) {
                    base.put("tls-cert", "unused.pem");
                    base.put("tls-key", "unused.pem");
                } else {
                    base.put("tls-trust", "unused.pem");
                }
            }
            Map<String, String> written = new LinkedHashMap<>(base);
            written.put(s.name(), s.defaultValue());
            Object unset = bind(s.element(), base);
            Object set = bind(s.element(), written);
            String difference = ConfigFields.difference(unset, set);
            if (difference != null) {
                fail(s.key() + ": the table says default " + s.defaultValue() + ", but writing it changes " + difference
                        + "; fix the default in settings.txt (and the XSD, the Boot description and the docs)");
            }
            checked++;
        }
        assertTrue(checked > 50, "defaults checked: " + checked);
    }

    private static Object bind(String element, Map<String, String> attributes) {
        ConfigSource src = ConfigSource.attributes("<rpc:" + element + ">", attributes, null);
        return switch (element) {
            case "registry" -> ConfigBinder.registry(src);
            case "protocol" -> ConfigBinder.protocol(src, loader());
            case "service" -> ConfigBinder.service(src, GreetingService.class, IMPL);
            case "reference" -> ReferenceBinding.reference(src, null, GreetingService.class, loader());
            case "console" -> ConfigBinder.console(src);
            default -> throw new AssertionError("no binder for " + element);
        };
    }

    @Test
    void theAnnotationsHaveExactlyTheAnnotationSettings() {
        assertEquals(camel("service"), attributes(RpcService.class, "value", "interfaceClass"));
        assertEquals(camel("reference"), attributes(RpcReference.class, "interfaceClass"));
    }

    private static Set<String> camel(String element) {
        return Settings.all().stream().filter(s -> s.element().equals(element) && s.where().contains(Where.ANN))
                .map(Setting::annotationName).collect(Collectors.toCollection(TreeSet::new));
    }

    private static Set<String> attributes(Class<?> annotation, String... structural) {
        Set<String> names = Arrays.stream(annotation.getDeclaredMethods()).map(Method::getName)
                .collect(Collectors.toCollection(TreeSet::new));
        names.removeAll(List.of(structural));
        return names;
    }

    @Test
    void everyRowIsWellFormed() {
        Set<String> keys = new TreeSet<>();
        for (Setting s : Settings.all()) {
            assertTrue(keys.add(s.element() + "." + s.name()), "declared twice: " + s.key());
            assertTrue(s.name().matches("[a-z][a-z0-9-]*"), "kebab-case: " + s.key());
            assertTrue(s.type().matches("text|int|long|bool|duration|class|list|path|[a-z0-9]+(/[a-z0-9]+)+"),
                    s.key() + " type " + s.type());
            assertFalse(s.description().isBlank(), s.key());
            assertFalse(s.where().isEmpty(), s.key());
            if (s.type().contains("/") && s.hasFixedDefault()) {
                assertTrue(List.of(s.type().split("/")).contains(s.defaultValue()), s.key() + ": default is a choice");
            }
        }
        assertTrue(Settings.environmentKeys().containsAll(Set.of("rpc.protocol.port", "rpc.reference.timeout",
                "rpc.access-log", EnvironmentKeys.SWITCH)));
    }

    @Test
    void docsConfigurationHoldsTheTable() throws Exception {
        SettingsDoc.check();
    }

    private static Set<String> asked(java.util.function.Consumer<ConfigSource> binder) {
        Set<String> asked = new TreeSet<>();
        binder.accept(ConfigSource.recording("<rpc:x>", Map.of(), asked));
        return asked;
    }

    private static Setting setting(String element, String name, Where where) {
        return Settings.all().stream().filter(s -> s.element().equals(element) && s.name().equals(name)
                && s.where().contains(where)).findFirst().orElseThrow(() -> new AssertionError(element + "." + name));
    }

    private static ClassLoader loader() {
        return SettingsTableTest.class.getClassLoader();
    }
}
