package io.kestrel.rpc.registry.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host lock as another process sees it. Its locks are POSIX record locks, which closing any descriptor of
 * the file in the holding JVM releases: reading the host's pid there (as a test or a tool in the hosting JVM
 * does) must not free the port for a take-over while the server keeps running.
 */
@Timeout(60)
class HostLockTest {
    @TempDir
    Path dir;

    @Test
    void readingThePidInTheHostingJvmKeepsTheLockForOtherProcesses() throws Exception {
        Path file = dir.resolve("zookeeper-1.lock");
        try (HostLock lock = HostLock.tryAcquire(file)) {
            assertNotNull(lock);
            String pid = String.valueOf(ProcessHandle.current().pid());
            assertEquals(pid, Files.readString(file, StandardCharsets.US_ASCII).strip());
            assertEquals(pid, HostLock.hostPid(file));
            assertNull(HostLock.tryAcquire(file), "this JVM holds it already");
            assertEquals("held", otherProcessTries(file), "another process finds the lock held");
        }
        assertEquals("acquired", otherProcessTries(file), "released when closed");
        try (HostLock again = HostLock.tryAcquire(file)) {
            assertNotNull(again, "this JVM can take it again after closing it");
        }
    }

    /** What {@link HostLock#tryAcquire} gives another JVM: "acquired" or "held". */
    private static String otherProcessTries(Path file) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), TryLock.class.getName(), file.toString())
                .redirectErrorStream(true).start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the other JVM ended");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    /** The other process: tries the lock once and prints what it got. */
    public static final class TryLock {
        private TryLock() {
        }

        public static void main(String[] args) {
            HostLock lock = HostLock.tryAcquire(Path.of(args[0]));
            System.out.println(lock == null ? "held" : "acquired");
            if (lock != null) {
                lock.close();
            }
        }
    }
}
