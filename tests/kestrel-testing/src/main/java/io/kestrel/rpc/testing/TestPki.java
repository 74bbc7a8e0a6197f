package io.kestrel.rpc.testing;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Certificates made at test time with BouncyCastle: a CA, and certificates it issues (server,
 * client, expired, not yet valid, with chosen subject alternative names), written as PEM files.
 * EC P-256 keys, so generating them is quick.
 */
public final class TestPki {
    private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());

    /** A key pair and its certificate, issued by {@link #issuer}. */
    public record Issued(KeyPair keys, X509Certificate certificate, TestPki issuer) {
        /** Writes {@code name}.crt (the certificate) and {@code name}.key (PKCS#8) into {@code dir}. */
        public Files2 write(Path dir, String name) {
            Path cert = dir.resolve(name + ".crt");
            Path key = dir.resolve(name + ".key");
            writeCertificates(cert, certificate);
            writeKey(key, keys.getPrivate());
            return new Files2(cert, key);
        }
    }

    /** A certificate file and its key file. */
    public record Files2(Path cert, Path key) {
    }

    private final String name;
    private final KeyPair keys;
    private final X509Certificate certificate;

    private TestPki(String name, KeyPair keys, X509Certificate certificate) {
        this.name = name;
        this.keys = keys;
        this.certificate = certificate;
    }

    /** A new self-signed CA valid for a day around now. */
    public static TestPki ca(String commonName) {
        KeyPair keys = newKeys();
        X500Name subject = new X500Name("CN=" + commonName + ",O=Kestrel Test");
        Instant now = Instant.now();
        X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(subject, serial(),
                Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(1))), subject,
                keys.getPublic());
        try {
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return new TestPki(commonName, keys, sign(b, keys.getPrivate()));
    }

    public X509Certificate certificate() {
        return certificate;
    }

    /** Writes this CA's certificate as a trust-roots PEM file. */
    public Path writeTrust(Path dir) {
        Path file = dir.resolve(name.replaceAll("\\W", "-") + "-ca.crt");
        writeCertificates(file, certificate);
        return file;
    }

    /** A certificate valid for a day around now, for 127.0.0.1 and localhost. */
    public Issued server(String commonName) {
        return issue(commonName, Instant.now().minus(Duration.ofHours(1)), Instant.now().plus(Duration.ofDays(1)),
                "IP:127.0.0.1", "DNS:localhost");
    }

    /** A client certificate valid for a day around now with the given alternative names. */
    public Issued client(String commonName, String... sans) {
        return issue(commonName, Instant.now().minus(Duration.ofHours(1)), Instant.now().plus(Duration.ofDays(1)),
                sans);
    }

    /**
     * A certificate signed by this CA.
     *
     * @param sans "DNS:name", "IP:1.2.3.4", "URI:spiffe://..."
     */
    public Issued issue(String commonName, Instant notBefore, Instant notAfter, String... sans) {
        KeyPair leaf = newKeys();
        X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(certificate, serial(), Date.from(notBefore),
                Date.from(notAfter),
                new X500Name("CN=" + commonName + ",O=Kestrel Test"), leaf.getPublic());
        try {
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement));
            if (sans.length > 0) {
                List<GeneralName> names = new ArrayList<>();
                for (String san : sans) {
                    String value = san.substring(san.indexOf(':') + 1);
                    names.add(switch (san.substring(0, san.indexOf(':'))) {
                        case "DNS" -> new GeneralName(GeneralName.dNSName, value);
                        case "IP" -> new GeneralName(GeneralName.iPAddress, value);
                        case "URI" -> new GeneralName(GeneralName.uniformResourceIdentifier, value);
                        default -> throw new IllegalArgumentException("SAN type of " + san);
                    });
                }
                b.addExtension(Extension.subjectAlternativeName, false,
                        new GeneralNames(names.toArray(new GeneralName[0])));
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return new Issued(leaf, sign(b, keys.getPrivate()), this);
    }

    public static void writeCertificates(Path file, X509Certificate... certificates) {
        StringBuilder sb = new StringBuilder();
        try {
            for (X509Certificate c : certificates) {
                sb.append(pem("CERTIFICATE", c.getEncoded()));
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        write(file, sb.toString());
    }

    public static void writeKey(Path file, PrivateKey key) {
        write(file, pem("PRIVATE KEY", key.getEncoded()));
    }

    private static void write(Path file, String text) {
        try {
            // written to a temporary file and moved, as a rotation tool would, so a reader never sees half a file
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, text, StandardCharsets.US_ASCII);
            Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String pem(String label, byte[] der) {
        return "-----BEGIN " + label + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(der) + "\n-----END " + label + "-----\n";
    }

    private static KeyPair newKeys() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("secp256r1"));
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static BigInteger serial() {
        return BigInteger.valueOf(SERIAL.incrementAndGet());
    }

    private static X509Certificate sign(X509v3CertificateBuilder b, PrivateKey issuerKey) {
        try {
            return new JcaX509CertificateConverter().getCertificate(
                    b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKey)));
        } catch (OperatorCreationException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
