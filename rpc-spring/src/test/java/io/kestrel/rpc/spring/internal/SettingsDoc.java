package io.kestrel.rpc.spring.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.spring.internal.Settings.Setting;
import io.kestrel.rpc.spring.internal.Settings.Where;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The table of every setting in docs/configuration.md, written from {@link Settings}: checked by
 * {@link SettingsTableTest}, rewritten with {@code -Dkestrel.docs.update=true}.
 */
final class SettingsDoc {
    static final String BEGIN = "<!-- settings-table:begin (generated from rpc-spring's settings.txt by SettingsTableTest;"
            + " regenerate with -Dkestrel.docs.update=true) -->";
    static final String END = "<!-- settings-table:end -->";

    private SettingsDoc() {
    }

    /** Fails when the docs' table is not the one {@link Settings} gives; with the update switch, rewrites it. */
    static void check() throws IOException {
        Path docs = configurationMd();
        String text = Files.readString(docs, StandardCharsets.UTF_8);
        String table = markdown();
        int begin = text.indexOf(BEGIN);
        int end = text.indexOf(END);
        String updated = begin >= 0 && end > begin ? text.substring(0, begin) + table + text.substring(end + END.length())
                : text.stripTrailing() + "\n\n## Every setting\n\n" + table + "\n";
        if (Boolean.getBoolean("kestrel.docs.update")) {
            Files.writeString(docs, updated, StandardCharsets.UTF_8);
            return;
        }
        assertTrue(begin >= 0 && end > begin, docs + " has no generated settings table; run this test with"
                + " -Dkestrel.docs.update=true to add it");
        assertEquals(table, text.substring(begin, end + END.length()), docs + " is not the table of settings.txt; run"
                + " this test with -Dkestrel.docs.update=true to rewrite it");
    }

    static String markdown() {
        List<String> out = new ArrayList<>();
        out.add(BEGIN);
        String element = null;
        for (Setting s : Settings.all()) {
            if (!s.element().equals(element)) {
                element = s.element();
                out.add("");
                out.add(element.equals("-") ? "**Top-level keys**" : "**`<rpc:" + element + ">`**");
                out.add("");
                out.add("| Name | Type | Default | Written as | Description |");
                out.add("|---|---|---|---|---|");
            }
            List<String> where = new ArrayList<>();
            if (s.where().contains(Where.XML)) {
                where.add("XML");
            }
            if (s.where().contains(Where.ENV)) {
                where.add("`" + s.key() + "`");
            }
            if (s.where().contains(Where.ANN)) {
                where.add("`@Rpc" + (element.equals("service") ? "Service" : "Reference") + "(" + s.annotationName()
                        + ")`");
            }
            String dflt = s.defaultValue().equals("-") ? "" : s.hasFixedDefault() ? "`" + s.defaultValue() + "`"
                    : s.defaultValue().substring(1, s.defaultValue().length() - 1);
            out.add("| `" + s.name() + "` | " + s.type().replace("/", " \\| ") + " | " + dflt + " | "
                    + String.join(", ", where) + " | " + s.description().replace("|", "\\|") + " |");
        }
        out.add("");
        out.add(END);
        return String.join("\n", out);
    }

    private static Path configurationMd() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path p = dir.resolve("docs").resolve("configuration.md");
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        throw new AssertionError("docs/configuration.md not found above " + Path.of("").toAbsolutePath());
    }
}
