package io.kestrel.rpc.registry.embedded;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * What the members of one embedded ZooKeeper server share: the password of their ZooKeeper digest identity
 * {@value #USER} (every node Kestrel creates there is readable and writable by that identity only), and the
 * proof the server's host stores in {@value #PROOF_PATH} for joining processes to check.
 *
 * <p>For the shared server both are HMAC-SHA256 of the per-user secret ({@link EmbeddedDirectory}) and the
 * server's random host id, under different labels. A joining process sends the password to whatever listens
 * on the port (digest authentication sends it in the clear); if that is a squatter, it learns the password of
 * one server id only, which is useless on any other server, and it cannot compute the proof from it. The
 * private server (port 0) uses random values held in memory.
 */
record EmbeddedCredentials(byte[] password, byte[] proof) {
    /** The digest user name of Kestrel's members. */
    static final String USER = "kestrel";
    /** The node holding the proof; only the members can read it. */
    static final String PROOF_PATH = "/kestrel-embedded-registry";

    static EmbeddedCredentials derive(byte[] secret, String hostId) {
        return new EmbeddedCredentials(hmac(secret, "member:" + hostId), hmac(secret, "host:" + hostId));
    }

    static EmbeddedCredentials random() {
        HexFormat hex = HexFormat.of();
        return new EmbeddedCredentials(hex.parseHex(EmbeddedDirectory.randomHex(32)),
                hex.parseHex(EmbeddedDirectory.randomHex(32)));
    }

    /** The argument of ZooKeeper's {@code addAuthInfo("digest", ...)}. */
    byte[] digestAuth() {
        return (USER + ":" + HexFormat.of().formatHex(password)).getBytes(StandardCharsets.US_ASCII);
    }

    /** What the host stores in {@link #PROOF_PATH}. */
    byte[] proofData() {
        return HexFormat.of().formatHex(proof).getBytes(StandardCharsets.US_ASCII);
    }

    /** Whether {@code data}, read from {@link #PROOF_PATH}, is this server's proof (in constant time). */
    boolean isProof(byte[] data) {
        return data != null && MessageDigest.isEqual(proofData(), data);
    }

    @Override
    public String toString() {
        return "EmbeddedCredentials[hidden]";
    }

    private static byte[] hmac(byte[] key, String label) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(label.getBytes(StandardCharsets.US_ASCII));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JVM", e);
        }
    }
}
