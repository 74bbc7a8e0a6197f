package io.kestrel.rpc.perf.server;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A private copy of this JVM's class path for the server JVMs, so that every server of a run
 * executes the code the run started with, even when the jars in the local Maven repository or the
 * modules' {@code target/classes} are rebuilt meanwhile (other builds in the same working tree).
 * Jars are hard-linked where possible (a rebuild replaces the file, the link keeps the old one) and
 * copied otherwise; class directories are copied. {@link #close()} deletes the copy.
 */
public final class ClasspathSnapshot implements AutoCloseable {
    private final Path dir;
    private final String classPath;

    private ClasspathSnapshot(Path dir, String classPath) {
        this.dir = dir;
        this.classPath = classPath;
    }

    /** Snapshots {@code java.class.path} into a new temporary directory. */
    public static ClasspathSnapshot ofCurrentJvm() throws IOException {
        Path dir = Files.createTempDirectory("kestrel-perf-classpath");
        List<String> entries = new ArrayList<>();
        int i = 0;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (entry.isBlank()) {
                continue;
            }
            Path source = Path.of(entry);
            Path target = dir.resolve(i++ + "-" + source.getFileName());
            if (Files.isDirectory(source)) {
                copyTree(source, target);
            } else if (Files.isRegularFile(source)) {
                try {
                    Files.createLink(target, source);
                } catch (FileSystemException | UnsupportedOperationException e) {
                    Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            } else {
                continue; // a missing entry stays missing
            }
            entries.add(target.toString());
        }
        return new ClasspathSnapshot(dir, String.join(File.pathSeparator, entries));
    }

    /** The class path to pass to {@code java -cp}. */
    public String classPath() {
        return classPath;
    }

    private static void copyTree(Path source, Path target) throws IOException {
        try (Stream<Path> files = Files.walk(source)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Path t = target.resolve(source.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    @Override
    public void close() {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // a temp directory left behind is harmless
        }
    }
}
