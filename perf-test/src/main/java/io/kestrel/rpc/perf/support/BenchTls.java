package io.kestrel.rpc.perf.support;

import io.kestrel.rpc.api.config.TlsConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Certificates for the TLS systems: a throwaway CA and a server certificate for 127.0.0.1 (EC
 * P-256), made by the server JVM when it starts a TLS system and read by the client JVM, which
 * connects after the server is up. They live in {@code <java.io.tmpdir>/kestrel-perf-tls} and are
 * made afresh by every server start.
 */
public final class BenchTls {
    /** What the TLS systems use, for the report. */
    public static final String DESCRIPTION = "TLS 1.3/1.2 as negotiated, JDK engine, EC P-256 certificate";
    private static final Path DIR = Path.of(System.getProperty("java.io.tmpdir"), "kestrel-perf-tls");

    private BenchTls() {
    }

    /** The provider's TLS, with freshly made files. */
    public static synchronized TlsConfig server() {
        try {
            Files.createDirectories(DIR);
            KeyPair caKeys = keys();
            X500Name caName = new X500Name("CN=Kestrel perf CA");
            Instant now = Instant.now();
            X509v3CertificateBuilder ca = new JcaX509v3CertificateBuilder(caName, BigInteger.ONE,
                    Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(2))), caName,
                    caKeys.getPublic());
            ca.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            X509Certificate caCert = sign(ca, caKeys);
            KeyPair serverKeys = keys();
            X509v3CertificateBuilder server = new JcaX509v3CertificateBuilder(caCert, BigInteger.TWO,
                    Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(2))),
                    new X500Name("CN=127.0.0.1"), serverKeys.getPublic());
            server.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                    new GeneralName(GeneralName.iPAddress, "127.0.0.1"), new GeneralName(GeneralName.dNSName,
                    "localhost")}));
            X509Certificate serverCert = sign(server, caKeys);
            write(DIR.resolve("server.key"), pem("PRIVATE KEY", serverKeys.getPrivate().getEncoded()));
            write(DIR.resolve("server.crt"), pem("CERTIFICATE", serverCert.getEncoded()));
            write(DIR.resolve("ca.crt"), pem("CERTIFICATE", caCert.getEncoded()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the benchmark's TLS files to " + DIR, e);
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException("cannot make the benchmark's TLS certificates", e);
        }
        return TlsConfig.builder().keyPair(DIR.resolve("server.crt"), DIR.resolve("server.key")).build();
    }

    /** The consumer's TLS: trusts the CA {@link #server()} made. */
    public static TlsConfig client() {
        return TlsConfig.builder().trustRoots(DIR.resolve("ca.crt")).build();
    }

    private static KeyPair keys() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        return g.generateKeyPair();
    }

    private static X509Certificate sign(X509v3CertificateBuilder b, KeyPair issuer)
            throws GeneralSecurityException, OperatorCreationException {
        return new JcaX509CertificateConverter().getCertificate(
                b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuer.getPrivate())));
    }

    private static String pem(String label, byte[] der) {
        return "-----BEGIN " + label + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + label + "-----\n";
    }

    private static void write(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.US_ASCII);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
