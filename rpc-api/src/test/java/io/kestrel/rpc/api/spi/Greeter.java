package io.kestrel.rpc.api.spi;

/** A test SPI; implementations are listed in this module's test resources, except {@link Hola}. */
public interface Greeter {
    String name();

    /** Built-in implementations. */
    final class Hello implements Greeter {
        @Override
        public String name() {
            return "hello";
        }
    }

    final class Bonjour implements Greeter {
        @Override
        public String name() {
            return "Bonjour"; // looked up case-insensitively
        }
    }

    /** Listed only by the services file ExtensionPointTest writes for a context class loader. */
    final class Hola implements Greeter {
        @Override
        public String name() {
            return "hola";
        }
    }
}
