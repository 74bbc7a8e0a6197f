package io.kestrel.rpc.registry.embedded;

import io.kestrel.rpc.api.RegistryException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;

/**
 * The per-user directory of the shared embedded registry: {@value #DIR_PROPERTY}, by default
 * {@code ~/.kestrel/embedded-registry}. It holds
 * <ul>
 *   <li>{@code secret}: 32 random bytes (hex), made on first use; who can read it can join the registry;</li>
 *   <li>{@code zookeeper-<port>.lock} and {@code zookeeper-<port>.lock.held}: the host lock of a port
 *       ({@link HostLock});</li>
 *   <li>{@code zookeeper-<port>.host}: the random id of the server hosted on that port now, written by its host.</li>
 * </ul>
 * The directory is created 0700 and its files 0600. A directory or file owned by another user, or one that
 * others may write (or, for the secret and host files, read), is refused with a message naming it and the
 * fix: anyone who can write there could hand this user's processes a registry of their own. Where the file
 * system has no POSIX permissions (Windows) only the ownership of the user's profile protects it.
 */
final class EmbeddedDirectory {
    /** System property: the directory; tests point it into their build directory. */
    static final String DIR_PROPERTY = "kestrel.rpc.registry.embedded.dir";
    private static final int SECRET_BYTES = 32;
    private static final int HOST_ID_BYTES = 16;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Set<PosixFilePermission> GROUP_OTHER_WRITE =
            EnumSet.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);
    private static final Set<PosixFilePermission> GROUP_OTHER_ANY = EnumSet.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    private final Path dir;
    private final byte[] secret;

    private EmbeddedDirectory(Path dir, byte[] secret) {
        this.dir = dir;
        this.secret = secret;
    }

    /** The configured directory, checked (created if missing), with its secret (created if missing). */
    static EmbeddedDirectory open() {
        return open(configured());
    }

    static EmbeddedDirectory open(Path dir) {
        try {
            if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
                createPrivateDirectory(dir);
            }
            check(dir, true);
            return new EmbeddedDirectory(dir, readOrCreateSecret(dir.resolve("secret")));
        } catch (IOException e) {
            throw new RegistryException(String.format("Cannot use the embedded registry's directory %s: %s. It "
                    + "must be a directory this user (%s) can create and write; set another with -D%s=DIR, or use a "
                    + "real ZooKeeper (zookeeper://host:port)", dir, e, userName(), DIR_PROPERTY), e);
        }
    }

    static Path configured() {
        String p = System.getProperty(DIR_PROPERTY);
        if (p != null && !p.isBlank()) {
            return Path.of(p.strip()).toAbsolutePath();
        }
        return Path.of(System.getProperty("user.home"), ".kestrel", "embedded-registry");
    }

    Path path() {
        return dir;
    }

    Path secretFile() {
        return dir.resolve("secret");
    }

    Path lockFile(int port) {
        return dir.resolve("zookeeper-" + port + ".lock");
    }

    Path hostFile(int port) {
        return dir.resolve("zookeeper-" + port + ".host");
    }

    /** The credentials of a server with {@code hostId} (hex), derived from the secret. */
    EmbeddedCredentials credentials(String hostId) {
        return EmbeddedCredentials.derive(secret, hostId);
    }

    /** Writes a new random host id for {@code port} (replacing any file atomically) and returns it. */
    String writeNewHostId(int port) throws IOException {
        String id = randomHex(HOST_ID_BYTES);
        Path tmp = dir.resolve("zookeeper-" + port + ".host." + ProcessHandle.current().pid() + ".tmp");
        Files.deleteIfExists(tmp);
        writePrivateFile(tmp, id);
        try {
            Files.move(tmp, hostFile(port), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, hostFile(port), StandardCopyOption.REPLACE_EXISTING);
        }
        return id;
    }

    /** The id the host of {@code port} wrote, if any (checked like the secret). */
    Optional<String> hostId(int port) {
        Path f = hostFile(port);
        try {
            check(f, false);
            String id = Files.readString(f, StandardCharsets.US_ASCII).strip();
            return id.length() == 2 * HOST_ID_BYTES ? Optional.of(id) : Optional.empty();
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new RegistryException("Cannot read the embedded registry's host file " + f + ": " + e, e);
        }
    }

    static String userName() {
        return System.getProperty("user.name", "?");
    }

    // ---- files ----

    private static void createPrivateDirectory(Path dir) throws IOException {
        Files.createDirectories(dir.getParent());
        try {
            if (posix(dir.getParent())) {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rwx------")));
            } else {
                Files.createDirectory(dir);
            }
        } catch (FileAlreadyExistsException e) {
            // another process of this user made it at the same moment; checked next
        }
    }

    private static byte[] readOrCreateSecret(Path file) throws IOException {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            Path tmp = file.resolveSibling("secret." + ProcessHandle.current().pid() + ".tmp");
            Files.deleteIfExists(tmp);
            writePrivateFile(tmp, randomHex(SECRET_BYTES));
            try {
                // a link, not a move: the first process to make the secret wins, the others read its secret
                Files.createLink(file, tmp);
            } catch (FileAlreadyExistsException e) {
                // made by another process at the same moment
            } catch (UnsupportedOperationException e) {
                Files.move(tmp, file);
            } finally {
                Files.deleteIfExists(tmp);
            }
        }
        check(file, false);
        String hex = Files.readString(file, StandardCharsets.US_ASCII).strip();
        try {
            byte[] secret = HexFormat.of().parseHex(hex);
            if (secret.length >= 16) {
                return secret;
            }
        } catch (IllegalArgumentException e) {
            // said below
        }
        throw new RegistryException(String.format("The embedded registry's secret %s is not what Kestrel writes "
                + "(at least 32 hex digits); delete it (a new one is made; processes running on the embedded "
                + "registry must then be restarted)", file));
    }

    private static void writePrivateFile(Path file, String text) throws IOException {
        if (posix(file.getParent())) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } else {
            Files.createFile(file);
        }
        Files.writeString(file, text, StandardCharsets.US_ASCII);
    }

    /**
     * Refuses a path owned by another user, a symbolic link, or one others may write (a directory) or use at
     * all (a file).
     */
    private static void check(Path p, boolean directory) throws IOException {
        PosixFileAttributeView view = Files.getFileAttributeView(p, PosixFileAttributeView.class,
                LinkOption.NOFOLLOW_LINKS);
        if (view == null) {
            return; // no POSIX permissions here (Windows): the user's profile directory is private
        }
        PosixFileAttributes attrs = view.readAttributes();
        String what = directory ? "directory" : "file";
        if (attrs.isSymbolicLink() || (directory ? !attrs.isDirectory() : !attrs.isRegularFile())) {
            throw refused(p, "is not a " + what + " (a symbolic link or something else)", "remove it");
        }
        UserPrincipal me = p.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(userName());
        if (!attrs.owner().equals(me)) {
            throw refused(p, "is owned by " + attrs.owner().getName() + ", not by " + userName(),
                    "remove it (or use a directory of your own)");
        }
        Set<PosixFilePermission> bad = EnumSet.copyOf(directory ? GROUP_OTHER_WRITE : GROUP_OTHER_ANY);
        bad.retainAll(attrs.permissions());
        if (!bad.isEmpty()) {
            throw refused(p, "has the permissions " + PosixFilePermissions.toString(attrs.permissions())
                    + " (others may " + (directory ? "write it" : "use it") + ")",
                    "chmod " + (directory ? "700 " : "600 ") + p);
        }
    }

    private static RegistryException refused(Path p, String problem, String fix) {
        return new RegistryException(String.format("Refusing the embedded registry's %s: it %s, so another user "
                + "could read its secret or replace it with their own. Fix: %s; or set another directory with "
                + "-D%s=DIR (owned by %s, mode 700)", p, problem, fix, DIR_PROPERTY, userName()));
    }

    private static boolean posix(Path dir) {
        return Files.getFileAttributeView(dir, PosixFileAttributeView.class) != null;
    }

    static String randomHex(int bytes) {
        byte[] b = new byte[bytes];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }
}
