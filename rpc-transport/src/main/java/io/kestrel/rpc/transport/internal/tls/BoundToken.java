package io.kestrel.rpc.transport.internal.tls;

import io.kestrel.rpc.api.ConsumerLimits;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A token bound to the provider it is meant for ({@value ConsumerLimits#BIND_TOKEN_PROPERTY}): instead of the
 * token {@code <id>.<secret>}, the consumer sends a proof that it holds the secret, made for one provider
 * connection and useless at any other:
 *
 * <pre>
 *  kestrel-bound-v1 &lt;id&gt; &lt;audience&gt; &lt;millis&gt; &lt;nonce&gt; &lt;base64 HMAC-SHA256(secret, id audience millis nonce)&gt;
 * </pre>
 *
 * The audience is the provider's end of the TCP connection as the consumer dialled it (IP and port), which the
 * provider compares with its own end; the time must be within {@link #MAX_SKEW_MILLIS} of the provider's clock.
 * A provider that collects the proof cannot use it at another provider (another address), nor after a minute.
 * The provider's authenticator gives the secret of an id ({@code Authenticator.secretOf}). Stateless.
 */
public final class BoundToken {
    static final String PREFIX = "kestrel-bound-v1 ";
    /** How far the consumer's clock may be from the provider's. */
    static final long MAX_SKEW_MILLIS = 60_000;
    private static final SecureRandom RANDOM = new SecureRandom();

    private BoundToken() {
    }

    /** The proof of {@code token} for the provider at {@code provider} (the connection's remote end). */
    static String proof(String token, SocketAddress provider) {
        int dot = token.indexOf('.');
        if (dot <= 0) { // refer refuses such a token first (TokenBinding)
            throw new IllegalStateException("a token bound to its provider must have the form <id>.<secret>");
        }
        String id = token.substring(0, dot);
        byte[] nonce = new byte[16];
        RANDOM.nextBytes(nonce);
        String signed = id + " " + audience(provider) + " " + System.currentTimeMillis() + " "
                + HexFormat.of().formatHex(nonce);
        return PREFIX + signed + " " + mac(token.substring(dot + 1), signed);
    }

    /** Whether {@code credential} is a bound proof rather than a token. */
    static boolean isProof(String credential) {
        return credential.startsWith(PREFIX);
    }

    /** The id a proof names (the text before its first space, after the prefix); null when malformed. */
    static String id(String proof) {
        String[] parts = proof.substring(PREFIX.length()).split(" ");
        return parts.length == 5 ? parts[0] : null;
    }

    /**
     * Why {@code proof} does not prove {@code secret} to the provider whose end of the connection is
     * {@code self}, or null when it does.
     */
    static String refusal(String proof, String secret, SocketAddress self) {
        String[] parts = proof.substring(PREFIX.length()).split(" ");
        if (parts.length != 5) {
            return "a malformed bound token";
        }
        String signed = proof.substring(PREFIX.length(), proof.lastIndexOf(' '));
        if (!MessageDigest.isEqual(mac(secret, signed).getBytes(StandardCharsets.US_ASCII),
                parts[4].getBytes(StandardCharsets.US_ASCII))) {
            return "a bound token whose proof does not match the secret of its id";
        }
        if (!parts[1].equals(audience(self))) {
            return "a bound token made for another provider (this provider is " + audience(self)
                    + "): a token another provider collected is not accepted here";
        }
        long millis;
        try {
            millis = Long.parseLong(parts[2]);
        } catch (NumberFormatException e) {
            return "a malformed bound token";
        }
        if (Math.abs(System.currentTimeMillis() - millis) > MAX_SKEW_MILLIS) {
            return "a bound token made more than " + MAX_SKEW_MILLIS / 1000 + " s from this provider's time (a replay,"
                    + " or clocks apart)";
        }
        return null;
    }

    /** IP and port of a connection's end, as both ends see it. */
    private static String audience(SocketAddress address) {
        if (address instanceof InetSocketAddress a && a.getAddress() != null) {
            return a.getAddress().getHostAddress() + ":" + a.getPort();
        }
        return String.valueOf(address);
    }

    private static String mac(String secret, String signed) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return Base64.getEncoder().encodeToString(mac.doFinal(signed.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
        }
    }
}
