package io.kestrel.rpc.api.spi;

/** A test SPI whose two listed implementations share a name. */
public interface Twin {
    String name();

    final class First implements Twin {
        @Override
        public String name() {
            return "same";
        }
    }

    final class Second implements Twin {
        @Override
        public String name() {
            return "same";
        }
    }
}
