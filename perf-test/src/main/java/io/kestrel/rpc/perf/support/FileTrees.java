package io.kestrel.rpc.perf.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;

/** Copying and deleting directory trees (class-path snapshots, Tomcat's base directory). */
public final class FileTrees {
    private FileTrees() {
    }

    /** Copies the tree at {@code source} to {@code target}, replacing files that exist. */
    public static void copy(Path source, Path target) throws IOException {
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

    /**
     * Deletes the tree at {@code dir} as far as it can.
     *
     * @return whether it could walk the whole tree (a file that would not go is not reported)
     */
    public static boolean deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            return true;
        } catch (IOException | UncheckedIOException e) {
            return false;
        }
    }
}
