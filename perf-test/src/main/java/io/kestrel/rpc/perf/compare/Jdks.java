package io.kestrel.rpc.perf.compare;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Finds the JDKs of {@code --jdks}: a feature version ("17", "25") is looked up in {@code JAVA_HOME},
 * the running JDK and {@code /usr/lib/jvm/*} (by the {@code JAVA_VERSION} of each one's
 * {@code release} file); anything else is taken as a JDK directory.
 */
public final class Jdks {
    /** Where JDKs are searched for besides {@code JAVA_HOME} and the running one. */
    static final Path JVM_DIR = Path.of("/usr/lib/jvm");

    /**
     * A JDK to run the matrix on.
     *
     * @param label the feature version as the report names it, e.g. "17"
     * @param home its directory ({@code bin/java} inside)
     * @param version its full {@code JAVA_VERSION}, e.g. "17.0.15"
     */
    public record Jdk(String label, Path home, String version) {
        /** Its {@code java} launcher. */
        public Path java() {
            return home.resolve("bin").resolve("java");
        }
    }

    private Jdks() {
    }

    /**
     * Resolves a comma-separated list of feature versions and JDK directories.
     *
     * @throws IllegalArgumentException naming an entry that is no JDK, or a version not found with the
     *     JDKs that were found
     */
    public static List<Jdk> resolve(String list) {
        List<Jdk> jdks = new ArrayList<>();
        Map<String, Jdk> found = null;
        for (String part : list.split(",")) {
            String p = part.trim();
            if (p.isEmpty()) {
                continue;
            }
            Jdk jdk;
            if (p.matches("\\d+")) {
                found = found != null ? found : installed();
                jdk = found.get(p);
                if (jdk == null) {
                    throw new IllegalArgumentException("--jdks: no JDK " + p + " in JAVA_HOME, the running JDK or "
                            + JVM_DIR + "/* (found: " + describe(found) + "); give its directory instead, e.g. --jdks "
                            + "17,/opt/jdk-" + p);
                }
            } else {
                jdk = at(Path.of(p));
                if (jdk == null) {
                    throw new IllegalArgumentException("--jdks: " + p + " is no JDK directory (no bin/java and release"
                            + " file with JAVA_VERSION)");
                }
            }
            if (jdks.stream().noneMatch(j -> j.label().equals(jdk.label()))) {
                jdks.add(jdk);
            }
        }
        if (jdks.isEmpty()) {
            throw new IllegalArgumentException("--jdks names no JDK");
        }
        return List.copyOf(jdks);
    }

    /** The JDKs found in the usual places, by feature version; the first found of a version wins. */
    static Map<String, Jdk> installed() {
        Map<String, Jdk> byLabel = new LinkedHashMap<>();
        List<Path> candidates = new ArrayList<>();
        String javaHome = System.getenv("JAVA_HOME");
        if (javaHome != null && !javaHome.isBlank()) {
            candidates.add(Path.of(javaHome));
        }
        candidates.add(Path.of(System.getProperty("java.home")));
        if (Files.isDirectory(JVM_DIR)) {
            try (DirectoryStream<Path> dirs = Files.newDirectoryStream(JVM_DIR)) {
                List<Path> sorted = new ArrayList<>();
                dirs.forEach(sorted::add);
                sorted.sort(null);
                candidates.addAll(sorted);
            } catch (IOException e) {
                // an unreadable directory contributes nothing; the error names what was found
            }
        }
        for (Path c : candidates) {
            Jdk jdk = at(c);
            if (jdk != null) {
                byLabel.putIfAbsent(jdk.label(), jdk);
            }
        }
        return byLabel;
    }

    /** The JDK at {@code dir}, or null if it is none. */
    static Jdk at(Path dir) {
        Path home;
        try {
            home = dir.toRealPath();
        } catch (IOException e) {
            return null;
        }
        if (!Files.isExecutable(home.resolve("bin").resolve("java")) || !Files.isRegularFile(home.resolve("release"))) {
            return null;
        }
        Properties release = new Properties();
        try (InputStream in = Files.newInputStream(home.resolve("release"))) {
            release.load(in);
        } catch (IOException e) {
            return null;
        }
        String version = release.getProperty("JAVA_VERSION", "").replace("\"", "").trim();
        if (version.isEmpty()) {
            return null;
        }
        String feature = version.startsWith("1.") ? version.substring(2) : version;
        int end = 0;
        while (end < feature.length() && Character.isDigit(feature.charAt(end))) {
            end++;
        }
        return end == 0 ? null : new Jdk(feature.substring(0, end), home, version);
    }

    private static String describe(Map<String, Jdk> found) {
        if (found.isEmpty()) {
            return "none";
        }
        List<String> parts = new ArrayList<>();
        found.values().forEach(j -> parts.add(j.label() + " at " + j.home()));
        return String.join(", ", parts);
    }
}
