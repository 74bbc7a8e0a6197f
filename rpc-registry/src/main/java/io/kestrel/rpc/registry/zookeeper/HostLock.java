package io.kestrel.rpc.registry.zookeeper;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Which process of this user hosts the embedded ZooKeeper of a port: the one holding an exclusive lock on
 * {@code zookeeper-<port>.lock} in the user's {@link EmbeddedDirectory} (holding the host's pid as text). The
 * operating system releases the lock when that process ends, however it ends, so exactly one survivor can
 * take over. When the file cannot be used (a read-only temp directory) hosting falls back to who binds the
 * port first.
 */
final class HostLock implements AutoCloseable {
    private final RandomAccessFile file;
    private final FileLock lock;

    private HostLock(RandomAccessFile file, FileLock lock) {
        this.file = file;
        this.lock = lock;
    }

    /** The lock in {@code path}, or null while another process (or this one) holds it. */
    static HostLock tryAcquire(Path path) {
        RandomAccessFile f = null;
        try {
            f = new RandomAccessFile(path.toFile(), "rw");
            FileLock l = f.getChannel().tryLock();
            if (l == null) {
                f.close();
                return null;
            }
            FileChannel ch = f.getChannel();
            ch.truncate(0);
            ch.write(java.nio.ByteBuffer.wrap(String.valueOf(ProcessHandle.current().pid())
                    .getBytes(StandardCharsets.US_ASCII)), 0);
            return new HostLock(f, l);
        } catch (OverlappingFileLockException e) {
            closeQuietly(f);
            return null;
        } catch (IOException e) {
            closeQuietly(f);
            return new HostLock(null, null); // no usable lock file: whoever binds the port first hosts
        }
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
        try {
            if (lock != null) {
                lock.release();
            }
        } catch (IOException e) {
            // released when the file closes anyway
        }
        closeQuietly(file);
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
