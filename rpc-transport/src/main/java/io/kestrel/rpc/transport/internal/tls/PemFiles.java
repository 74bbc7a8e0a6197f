package io.kestrel.rpc.transport.internal.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads PEM files (certificates, PKCS#8 private keys) and checks them, with errors that name the
 * file, the setting it came from and what is wrong: missing, unreadable, no PEM block of the
 * expected kind, unsupported key format, key not matching the certificate, certificate expired or
 * not yet valid. Every failure is an {@link IllegalArgumentException} (a configuration error).
 */
final class PemFiles {
    private static final Pattern BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]+)-----\\s*([A-Za-z0-9+/=\\s]*?)\\s*-----END \\1-----");

    private PemFiles() {
    }

    /** One PEM block: its label ("CERTIFICATE", "PRIVATE KEY", ...) and its decoded bytes. */
    private record Block(String label, byte[] der) {
    }

    /** The bytes of a file, or an error naming it and the setting. */
    static byte[] read(Path file, String setting) {
        try {
            if (Files.isDirectory(file)) {
                throw bad(file, setting, "is a directory, not a PEM file");
            }
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw bad(file, setting, "does not exist (absolute path: " + file.toAbsolutePath() + ")");
        } catch (AccessDeniedException e) {
            throw bad(file, setting, "cannot be read: permission denied for this process's user");
        } catch (IOException e) {
            throw bad(file, setting, "cannot be read: " + e);
        }
    }

    private static List<Block> blocks(Path file, String setting, byte[] content) {
        String text = new String(content, StandardCharsets.US_ASCII);
        List<Block> blocks = new ArrayList<>();
        Matcher m = BLOCK.matcher(text);
        while (m.find()) {
            try {
                blocks.add(new Block(m.group(1), Base64.getMimeDecoder().decode(m.group(2))));
            } catch (IllegalArgumentException e) {
                throw bad(file, setting, "has a '" + m.group(1) + "' PEM block that is not valid base64");
            }
        }
        return blocks;
    }

    /**
     * The certificates in a PEM file, in file order (for a chain: the certificate first, then its
     * intermediates).
     */
    static List<X509Certificate> certificates(Path file, String setting, byte[] content) {
        List<X509Certificate> certs = new ArrayList<>();
        List<String> others = new ArrayList<>();
        for (Block b : blocks(file, setting, content)) {
            if (!b.label().equals("CERTIFICATE")) {
                others.add(b.label());
                continue;
            }
            try {
                certs.add((X509Certificate) CertificateFactory.getInstance("X.509")
                        .generateCertificate(new ByteArrayInputStream(b.der())));
            } catch (CertificateException e) {
                throw bad(file, setting, "has a CERTIFICATE block that is not an X.509 certificate: " + e.getMessage());
            }
        }
        if (certs.isEmpty()) {
            throw bad(file, setting, "is not a PEM certificate file: it has no '-----BEGIN CERTIFICATE-----' block"
                    + (others.isEmpty() ? "" : " (it has " + others + "; is it the key file?)"));
        }
        return certs;
    }

    /** The PKCS#8 private key in a PEM file; {@code algorithm} is the certificate's key algorithm. */
    static PrivateKey privateKey(Path file, String setting, byte[] content, String algorithm) {
        List<Block> blocks = blocks(file, setting, content);
        for (Block b : blocks) {
            switch (b.label()) {
                case "PRIVATE KEY" -> {
                    try {
                        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(b.der()));
                    } catch (GeneralSecurityException e) {
                        throw bad(file, setting, "has a PRIVATE KEY that is not a " + algorithm + " key, the algorithm"
                                + " of the certificate's public key (" + e.getMessage() + "); is it the key of this"
                                + " certificate?");
                    }
                }
                case "ENCRYPTED PRIVATE KEY" -> throw bad(file, setting, "holds an encrypted private key, which is not"
                        + " supported; store it unencrypted with restricted file permissions"
                        + " (openssl pkcs8 -in " + file.getFileName() + " -nocrypt -out key.pem)");
                case "RSA PRIVATE KEY", "EC PRIVATE KEY" -> throw bad(file, setting, "holds a '" + b.label()
                        + "' (PKCS#1/SEC1 format); convert it to PKCS#8 with: openssl pkcs8 -topk8 -nocrypt -in "
                        + file.getFileName() + " -out key.pem");
                default -> {
                    // keep looking: a file may carry other blocks
                }
            }
        }
        throw bad(file, setting, "is not a PEM private key file: it has no '-----BEGIN PRIVATE KEY-----' block"
                + (blocks.isEmpty() ? "" : " (it has " + blocks.stream().map(Block::label).toList()
                + "; is it the certificate file?)"));
    }

    /** Fails unless {@code key} is the private key of {@code certificate}'s public key. */
    static void checkKeyMatches(PrivateKey key, Path keyFile, X509Certificate certificate, Path certFile) {
        byte[] probe = new byte[32];
        new SecureRandom().nextBytes(probe);
        boolean matches;
        try {
            String algorithm = switch (key.getAlgorithm()) {
                case "RSA" -> "SHA256withRSA";
                case "EC" -> "SHA256withECDSA";
                default -> key.getAlgorithm(); // Ed25519, Ed448, EdDSA
            };
            Signature sign = Signature.getInstance(algorithm);
            sign.initSign(key);
            sign.update(probe);
            byte[] signature = sign.sign();
            Signature verify = Signature.getInstance(algorithm);
            verify.initVerify(certificate.getPublicKey());
            verify.update(probe);
            matches = verify.verify(signature);
        } catch (GeneralSecurityException e) {
            matches = false;
        }
        if (!matches) {
            throw new IllegalArgumentException("TLS private key " + keyFile + " (tls-key) does not match the"
                    + " certificate in " + certFile + " (tls-cert, subject " + subject(certificate) + "): they are not"
                    + " a pair. Was only one of them renewed?");
        }
    }

    /** Fails when the certificate is expired or not yet valid. */
    static void checkValidNow(X509Certificate certificate, Path file, String setting) {
        try {
            certificate.checkValidity();
        } catch (CertificateExpiredException e) {
            throw bad(file, setting, "holds a certificate (subject " + subject(certificate) + ") that expired on "
                    + certificate.getNotAfter().toInstant() + "; renew it");
        } catch (CertificateNotYetValidException e) {
            throw bad(file, setting, "holds a certificate (subject " + subject(certificate) + ") that is not valid"
                    + " before " + certificate.getNotBefore().toInstant() + "; check the clocks or the certificate");
        }
    }

    static String subject(X509Certificate certificate) {
        return certificate.getSubjectX500Principal().getName();
    }

    private static IllegalArgumentException bad(Path file, String setting, String problem) {
        return new IllegalArgumentException("TLS file " + file + " (" + setting + ") " + problem);
    }
}
