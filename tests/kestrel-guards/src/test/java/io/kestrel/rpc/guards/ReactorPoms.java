package io.kestrel.rpc.guards;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/** The reactor's POM files, read as XML: the root's modules and what each module says of itself. */
final class ReactorPoms {

    /** One module: its artifact id, packaging, and whether it is published (not marked {@code maven.deploy.skip}). */
    record Module(String artifactId, String packaging, boolean published) {
    }

    private ReactorPoms() {
    }

    /** The checkout's root: the nearest folder above the working directory whose pom.xml is the parent POM. */
    static Path root() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path pom = dir.resolve("pom.xml");
            if (Files.isRegularFile(pom) && text(child(read(pom), "artifactId")).equals("kestrel-rpc-parent")) {
                return dir;
            }
        }
        throw new IllegalStateException("no kestrel-rpc-parent pom.xml above " + Path.of("").toAbsolutePath());
    }

    static List<Module> modules(Path root) {
        List<Module> modules = new ArrayList<>();
        for (Element module : children(child(read(root.resolve("pom.xml")), "modules"), "module")) {
            Element pom = read(root.resolve(text(module)).resolve("pom.xml"));
            String packaging = child(pom, "packaging") == null ? "jar" : text(child(pom, "packaging"));
            Element properties = child(pom, "properties");
            boolean skipped = properties != null && child(properties, "maven.deploy.skip") != null
                    && text(child(properties, "maven.deploy.skip")).equals("true");
            modules.add(new Module(text(child(pom, "artifactId")), packaging, !skipped));
        }
        return modules;
    }

    /** The artifact ids of {@code groupId}'s dependencies managed by the POM at {@code pom}. */
    static List<String> managedArtifacts(Path pom, String groupId) {
        List<String> ids = new ArrayList<>();
        Element management = child(read(pom), "dependencyManagement");
        for (Element dependency : children(child(management, "dependencies"), "dependency")) {
            if (text(child(dependency, "groupId")).equals(groupId)) {
                ids.add(text(child(dependency, "artifactId")));
            }
        }
        return ids;
    }

    private static Element read(Path pom) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            Document document = factory.newDocumentBuilder().parse(pom.toFile());
            return document.getDocumentElement();
        } catch (IOException | javax.xml.parsers.ParserConfigurationException | org.xml.sax.SAXException e) {
            throw new IllegalStateException("cannot read " + pom + ": " + e.getMessage(), e);
        }
    }

    private static Element child(Element parent, String name) {
        List<Element> found = children(parent, name);
        return found.isEmpty() ? null : found.get(0);
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            Node node = nodes.item(i);
            if (node instanceof Element element && element.getTagName().equals(name)) {
                found.add(element);
            }
        }
        return found;
    }

    private static String text(Element element) {
        return element == null ? "" : element.getTextContent().trim();
    }
}
