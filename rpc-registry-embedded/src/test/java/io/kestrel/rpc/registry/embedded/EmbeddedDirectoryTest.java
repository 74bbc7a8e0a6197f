package io.kestrel.rpc.registry.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.RegistryException;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.registry.Registries;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The per-user directory of the embedded registry: made private, and refused when others could use it. */
@Timeout(60)
class EmbeddedDirectoryTest {
    @TempDir
    Path temp;

    @Test
    void madeOnFirstUseWithPrivatePermissionsAndTheSameSecretAfterwards() throws Exception {
        Path dir = temp.resolve("home/.kestrel/embedded-registry");
        EmbeddedDirectory first = EmbeddedDirectory.open(dir);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(first.secretFile())));
        String id = first.writeNewHostId(2182);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(first.hostFile(2182))));
        EmbeddedDirectory second = EmbeddedDirectory.open(dir);
        assertEquals(id, second.hostId(2182).orElseThrow());
        assertTrue(first.credentials(id).isProof(second.credentials(id).proofData()), "one secret");
        assertFalse(first.credentials(id).isProof(second.credentials(first.writeNewHostId(2182)).proofData()),
                "a new host id, other credentials");
        assertTrue(EmbeddedDirectory.open(temp.resolve("other")).credentials(id).proofData().length > 0);
        assertFalse(first.credentials(id).isProof(EmbeddedDirectory.open(temp.resolve("other")).credentials(id)
                .proofData()), "another secret, other credentials");
    }

    @Test
    void aDirectoryOthersMayWriteIsRefusedWithTheFix() throws Exception {
        Path dir = Files.createDirectory(temp.resolve("open"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        RegistryException e = assertThrows(RegistryException.class, () -> EmbeddedDirectory.open(dir));
        assertEquals("Refusing the embedded registry's " + dir + ": it has the permissions rwxrwxrwx (others may "
                + "write it), so another user could read its secret or replace it with their own. Fix: chmod 700 "
                + dir + "; or set another directory with -Dkestrel.rpc.registry.embedded.dir=DIR (owned by "
                + System.getProperty("user.name") + ", mode 700)", e.getMessage());
    }

    @Test
    void aSecretOthersMayReadIsRefused() throws Exception {
        Path dir = temp.resolve("d");
        EmbeddedDirectory.open(dir);
        Files.setPosixFilePermissions(dir.resolve("secret"), PosixFilePermissions.fromString("rw-r--r--"));
        RegistryException e = assertThrows(RegistryException.class, () -> EmbeddedDirectory.open(dir));
        assertTrue(e.getMessage().startsWith("Refusing the embedded registry's " + dir.resolve("secret")
                + ": it has the permissions rw-r--r-- (others may use it)"), e.getMessage());
        assertTrue(e.getMessage().contains("Fix: chmod 600 " + dir.resolve("secret")), e.getMessage());
    }

    @Test
    void aDirectoryOfAnotherUserIsRefused() throws Exception {
        Path dir = Files.createDirectory(temp.resolve("theirs"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        UserPrincipal nobody = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
        try {
            Files.setOwner(dir, nobody);
        } catch (IOException notRoot) {
            Assumptions.abort("giving a directory to 'nobody' needs root: " + notRoot);
        }
        RegistryException e = assertThrows(RegistryException.class, () -> EmbeddedDirectory.open(dir));
        assertTrue(e.getMessage().startsWith("Refusing the embedded registry's " + dir + ": it is owned by nobody, "
                + "not by " + System.getProperty("user.name")), e.getMessage());
    }

    @Test
    void theRegistryRefusesToStartOnABadDirectory() throws Exception {
        Path dir = Files.createDirectory(temp.resolve("open"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwx---"));
        String before = System.getProperty(EmbeddedDirectory.DIR_PROPERTY);
        System.setProperty(EmbeddedDirectory.DIR_PROPERTY, dir.toString());
        try {
            int port = EmbeddedTestSupport.unusedPort();
            RegistryException e = assertThrows(RegistryException.class, () -> Registries.create(
                    RegistryConfig.builder().address("embedded://" + port).build()));
            assertTrue(e.getMessage().contains("Fix: chmod 700 " + dir), e.getMessage());
            assertTrue(EmbeddedZooKeeper.current().isEmpty(), "nothing hosted");
            assertFalse(Files.exists(dir.resolve("secret")), "no secret written there");
        } finally {
            if (before == null) {
                System.clearProperty(EmbeddedDirectory.DIR_PROPERTY);
            } else {
                System.setProperty(EmbeddedDirectory.DIR_PROPERTY, before);
            }
        }
    }
}
