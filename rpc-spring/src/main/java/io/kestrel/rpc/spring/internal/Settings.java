package io.kestrel.rpc.spring.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The one table of the settings users write in Spring XML, the {@code rpc.*} keys of the Spring {@code Environment}
 * (and Spring Boot's properties) and the attributes of {@code @RpcService} / {@code @RpcReference}: name, type,
 * default, where it may be written and what it does, read from {@code settings.txt} beside this class. The
 * {@code Environment} keys the framework accepts come from it; tests check the XSD, the binder, the annotations,
 * Boot's properties and metadata and {@code docs/configuration.md} against it. The console's settings are in it too;
 * they take effect only with rpc-console on the class path.
 */
public final class Settings {
    /** The resource holding the table. */
    static final String RESOURCE = "settings.txt";
    private static final List<Setting> ALL = load();

    /** Where a setting may be written. */
    public enum Where {
        /** An attribute of {@code <rpc:element>}. */
        XML,
        /** The key {@code rpc.element.name} of the Spring {@code Environment} (a Boot property). */
        ENV,
        /** An attribute of {@code @RpcService} or {@code @RpcReference}, in camelCase. */
        ANN
    }

    /**
     * One setting.
     *
     * @param element the XML element and {@code Environment} group, or {@code "-"} for a top-level {@code rpc.*} key
     * @param name the XML attribute and the key after the group
     * @param type text, int, long, bool, duration, class, list, path, or choices written {@code a/b/c}
     * @param defaultValue the default as written in XML, {@code "-"} for none, or a description in parentheses
     * @param where where it may be written
     * @param description one sentence
     */
    public record Setting(String element, String name, String type, String defaultValue, Set<Where> where,
            String description) {
        /** The {@code Environment} key, e.g. {@code rpc.protocol.port}. */
        public String key() {
            return element.equals("-") ? "rpc." + name : "rpc." + element + "." + name;
        }

        /** Whether {@link #defaultValue()} is a value (not "none", not a description). */
        public boolean hasFixedDefault() {
            return !defaultValue.equals("-") && !defaultValue.startsWith("(");
        }

        /** The annotation attribute's name: the name in camelCase. */
        public String annotationName() {
            StringBuilder b = new StringBuilder();
            for (String part : name.split("-")) {
                b.append(b.length() == 0 ? part : Character.toUpperCase(part.charAt(0)) + part.substring(1));
            }
            return b.toString();
        }
    }

    private Settings() {
    }

    /** Every setting, in the table's order. */
    public static List<Setting> all() {
        return ALL;
    }

    /** The names of {@code element}'s settings that may be written {@code where}, in the table's order. */
    public static List<String> names(String element, Where where) {
        return ALL.stream().filter(s -> s.element().equals(element) && s.where().contains(where))
                .map(Setting::name).toList();
    }

    /** Every {@code rpc.*} key of the table. */
    public static Set<String> environmentKeys() {
        Set<String> keys = new TreeSet<>();
        ALL.stream().filter(s -> s.where().contains(Where.ENV)).forEach(s -> keys.add(s.key()));
        return keys;
    }

    private static List<Setting> load() {
        try (InputStream in = Settings.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing beside " + Settings.class.getName());
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    /** The table's lines: {@code element | name | type | default | where | description}; {@code #} starts a comment. */
    static List<Setting> parse(String text) {
        List<Setting> settings = new ArrayList<>();
        String[] lines = text.split("\n");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] cells = line.split(" \\| ", -1);
            if (cells.length != 6) {
                throw new IllegalStateException(RESOURCE + " line " + (i + 1) + ": expected 6 cells separated by"
                        + " ' | ', found " + cells.length);
            }
            Set<Where> where = EnumSet.noneOf(Where.class);
            Arrays.stream(cells[4].trim().split("\\s+"))
                    .forEach(w -> where.add(Where.valueOf(w.toUpperCase(Locale.ROOT))));
            settings.add(new Setting(cells[0].trim(), cells[1].trim(), cells[2].trim(), cells[3].trim(),
                    Set.copyOf(where), cells[5].trim()));
        }
        return List.copyOf(settings);
    }
}
