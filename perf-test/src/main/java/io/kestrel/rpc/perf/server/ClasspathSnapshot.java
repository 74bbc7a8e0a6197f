package io.kestrel.rpc.perf.server;

import io.kestrel.rpc.perf.support.FileTrees;
import java.io.File;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

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
                FileTrees.copy(source, target);
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

    @Override
    public void close() {
        FileTrees.deleteQuietly(dir); // a temp directory left behind is harmless
    }
}
