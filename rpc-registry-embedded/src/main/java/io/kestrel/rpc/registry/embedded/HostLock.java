package io.kestrel.rpc.registry.embedded;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which process of this user hosts the embedded ZooKeeper of a port: the one holding an exclusive lock on
 * {@code zookeeper-<port>.lock} in the user's {@link EmbeddedDirectory} (holding the host's pid as text) and on
 * its companion {@code zookeeper-<port>.lock.held}. The operating system releases both when that process ends,
 * however it ends, so exactly one survivor can take over. When the files cannot be used (a read-only temp
 * directory) hosting falls back to who binds the port first.
 *
 * <p>Why two files: these locks are POSIX record locks, owned by the process, not by the open file, so closing
 * <em>any</em> descriptor of a file in the host's JVM releases the host's lock on it. Reading the pid in
 * {@code zookeeper-<port>.lock} from the hosting JVM (as {@link #hostPid} does, or a tool or test that runs
 * there) therefore frees that lock while the server keeps running, and a joined process would then take the
 * host for a squatter and never reconnect. The companion file is opened by nothing but its holder here (a
 * second acquisition in this JVM is refused before opening it), so the host keeps it until it stops or dies.
 * The lock on {@code zookeeper-<port>.lock} is still taken, so a process that holds only that one (an older
 * host) keeps this one from hosting.
 */
final class HostLock implements AutoCloseable {
    /** Companion files whose lock this JVM holds; never opened again while held (closing would release it). */
    private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

    private final Path held;
    private final Locked companion;
    private final Locked pidFile;

    private record Locked(RandomAccessFile file, FileLock lock) {
        void close() {
            try {
                lock.release();
            } catch (IOException e) {
                // released when the file closes anyway
            }
            closeQuietly(file);
        }
    }

    private HostLock(Path held, Locked companion, Locked pidFile) {
        this.held = held;
        this.companion = companion;
        this.pidFile = pidFile;
    }

    /** The lock of {@code path}, or null while another process (or this one) holds it. */
    static HostLock tryAcquire(Path path) {
        Path held = companion(path);
        if (!HELD.add(held)) {
            return null; // this JVM hosts already; opening the file again would release its lock
        }
        Locked companion = null;
        try {
            companion = tryLock(held);
            Locked pidFile = companion == null ? null : tryLock(path);
            if (pidFile == null) {
                if (companion != null) {
                    companion.close();
                }
                HELD.remove(held);
                return null;
            }
            FileChannel ch = pidFile.file().getChannel();
            ch.truncate(0);
            ch.write(java.nio.ByteBuffer.wrap(String.valueOf(ProcessHandle.current().pid())
                    .getBytes(StandardCharsets.US_ASCII)), 0);
            return new HostLock(held, companion, pidFile);
        } catch (IOException e) {
            if (companion != null) {
                companion.close();
            }
            HELD.remove(held);
            return new HostLock(null, null, null); // no usable lock file: whoever binds the port first hosts
        }
    }

    /** The exclusive lock of {@code path}, or null while another process (or another channel here) holds it. */
    private static Locked tryLock(Path path) throws IOException {
        RandomAccessFile f = new RandomAccessFile(path.toFile(), "rw");
        try {
            FileLock l = f.getChannel().tryLock();
            if (l != null) {
                return new Locked(f, l);
            }
        } catch (OverlappingFileLockException e) {
            // held through another channel of this JVM
        } catch (IOException | RuntimeException e) {
            closeQuietly(f);
            throw e;
        }
        closeQuietly(f);
        return null;
    }

    static Path companion(Path lockFile) {
        return lockFile.toAbsolutePath().normalize().resolveSibling(lockFile.getFileName() + ".held");
    }

    /** The pid written by the current host, or "unknown". */
    static String hostPid(Path path) {
        try {
            String s = Files.readString(path, StandardCharsets.US_ASCII).strip();
            return s.isEmpty() ? "unknown" : s;
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    @Override
    public void close() {
        if (pidFile != null) {
            pidFile.close();
        }
        if (companion != null) {
            companion.close();
            HELD.remove(held);
        }
    }

    private static void closeQuietly(RandomAccessFile f) {
        if (f != null) {
            try {
                f.close();
            } catch (IOException e) {
                // nothing to do
            }
        }
    }
}
