/**
 * The one extension-lookup mechanism: {@link io.kestrel.rpc.api.spi.ExtensionPoint} finds the
 * implementations of an SPI with {@link java.util.ServiceLoader} under one class-loader policy and
 * {@link io.kestrel.rpc.api.spi.Extensions} selects them by short name.
 */
package io.kestrel.rpc.api.spi;
