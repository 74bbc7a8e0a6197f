package io.kestrel.rpc.spring.internal;

import io.kestrel.rpc.api.internal.NearestName;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;

/**
 * Checks the {@code rpc.*} keys of the Spring {@code Environment} against the keys the framework
 * reads, so a misspelt one ({@code rpc.protocol.serialisation}) fails startup naming the nearest known
 * key instead of being ignored. {@value #SWITCH}{@code =warn} only logs them (for applications that
 * keep keys of their own under {@code rpc.}). Only enumerable property sources are looked at
 * (properties files, system properties, maps, Spring Boot's configuration files).
 */
public final class EnvironmentKeys {
    private static final Logger log = LoggerFactory.getLogger(EnvironmentKeys.class);
    /** The switch: {@code fail} (default) or {@code warn}. */
    public static final String SWITCH = "rpc.unknown-keys";

    private EnvironmentKeys() {
    }

    /** Every {@code rpc.*} key the framework reads: those of {@link Settings} (the console's included). */
    public static Set<String> known() {
        return Settings.environmentKeys();
    }

    /**
     * @throws IllegalArgumentException naming each unknown key, its nearest known key (or the known keys
     *     of its group) and the switch, unless the switch says {@code warn}
     */
    public static void check(Environment environment) {
        if (!(environment instanceof ConfigurableEnvironment configurable)) {
            return;
        }
        Set<String> known = known();
        Set<String> unknown = new TreeSet<>();
        for (PropertySource<?> source : configurable.getPropertySources()) {
            if (source instanceof EnumerablePropertySource<?> e) {
                for (String name : e.getPropertyNames()) {
                    if (name.startsWith("rpc.") && !known.contains(name)) {
                        unknown.add(name);
                    }
                }
            }
        }
        if (unknown.isEmpty()) {
            return;
        }
        List<String> explained = new ArrayList<>();
        for (String key : unknown) {
            explained.add("'" + key + "'" + NearestName.closest(key, known).map(k -> " (did you mean '" + k + "'?)")
                    .orElseGet(() -> groupOf(key, known)));
        }
        String mode = environment.getProperty(SWITCH, "fail").trim().toLowerCase(Locale.ROOT);
        String text = "Unknown Kestrel RPC " + (unknown.size() == 1 ? "property " : "properties ")
                + String.join(", ", explained) + " in the Spring Environment; the framework reads only the keys listed"
                + " in its README. Fix the name, or set " + SWITCH + "=warn to only log unknown rpc.* keys";
        if (mode.equals("warn")) {
            log.warn(text);
        } else if (mode.equals("fail")) {
            throw new IllegalArgumentException(text);
        } else {
            throw new IllegalArgumentException("property '" + SWITCH + "' = \"" + mode + "\": expected fail or warn");
        }
    }

    /** " (known rpc.protocol.* keys: ...)" for a key in a known group, " (known groups: ...)" otherwise. */
    private static String groupOf(String key, Set<String> known) {
        int dot = key.indexOf('.', "rpc.".length());
        String group = dot < 0 ? key + "." : key.substring(0, dot + 1);
        List<String> same = known.stream().filter(k -> k.startsWith(group)).map(k -> k.substring(group.length())).toList();
        if (!same.isEmpty()) {
            return " (known " + group + "* keys: " + String.join(", ", same) + ")";
        }
        return " (known groups: rpc.application.*, rpc.registry.*, rpc.protocol.*, rpc.reference.*, rpc.console.*)";
    }
}
