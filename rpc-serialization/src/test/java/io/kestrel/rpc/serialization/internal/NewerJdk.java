package io.kestrel.rpc.serialization.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** A JDK of at least a given feature version on this machine, for checks the running JDK cannot make. */
final class NewerJdk {
    private NewerJdk() {
    }

    /**
     * The {@code java} launcher of {@code -Dkestrel.test.jdk<feature>} when set, else of the newest JDK under
     * /usr/lib/jvm whose {@code release} file says {@code JAVA_VERSION} is at least {@code feature}; null if none.
     */
    static Path find(int feature) throws IOException {
        String configured = System.getProperty("kestrel.test.jdk" + feature);
        if (configured != null) {
            return Path.of(configured, "bin", "java");
        }
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return null;
        }
        Path best = null;
        int bestVersion = 0;
        try (Stream<Path> homes = Files.list(jvms)) {
            for (Path home : homes.toList()) {
                int version = version(home);
                if (version >= feature && version > bestVersion && Files.isExecutable(home.resolve("bin/java"))) {
                    best = home.resolve("bin/java");
                    bestVersion = version;
                }
            }
        }
        return best;
    }

    private static int version(Path home) throws IOException {
        Path release = home.resolve("release");
        if (!Files.isRegularFile(release)) {
            return 0;
        }
        for (String line : Files.readAllLines(release)) {
            if (line.startsWith("JAVA_VERSION=")) {
                String v = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                String major = v.split("[.+-]")[0];
                return major.chars().allMatch(Character::isDigit) && !major.isEmpty() ? Integer.parseInt(major) : 0;
            }
        }
        return 0;
    }
}
