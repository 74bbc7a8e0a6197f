package io.kestrel.rpc.core;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * A class only the consumer has, as when a consumer's jar is newer than the provider's: compiled at
 * test time into a temporary directory and loaded by a class loader of its own, so the provider (on
 * the test class path) cannot load it.
 */
final class MissingClasses implements AutoCloseable {
    static final String PACKAGE = "com.acme.coupons";
    static final String CLASS = PACKAGE + ".Coupon";

    private final Path dir;
    private final URLClassLoader loader;

    MissingClasses() throws IOException {
        dir = Files.createTempDirectory("kestrel-missing");
        Path source = dir.resolve("Coupon.java");
        Files.writeString(source, "package " + PACKAGE + ";\n"
                + "public class Coupon implements java.io.Serializable, " + io.kestrel.rpc.core.fixture.Voucher.class.getName() + " {\n"
                + "  private static final long serialVersionUID = 1L;\n"
                + "  public String code = \"SPRING-10\";\n"
                + "  public Coupon() {}\n"
                + "}\n");
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("tests need a JDK with javax.tools (the JRE has no compiler)");
        }
        int rc = javac.run(null, null, null, "-d", dir.toString(), "-cp", System.getProperty("java.class.path"),
                source.toString());
        if (rc != 0) {
            throw new IllegalStateException("javac failed with " + rc);
        }
        loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, MissingClasses.class.getClassLoader());
    }

    /** A new Coupon, whose class the provider does not have. */
    Object coupon() throws ReflectiveOperationException {
        return loader.loadClass(CLASS).getConstructor().newInstance();
    }

    ClassLoader loader() {
        return loader;
    }

    @Override
    public void close() throws IOException {
        loader.close();
        try (var files = Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
