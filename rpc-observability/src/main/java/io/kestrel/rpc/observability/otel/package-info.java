/**
 * Tracing for Kestrel RPC straight on the OpenTelemetry API, as interceptors
 * ({@link io.kestrel.rpc.observability.otel.KestrelOpenTelemetry}): the cheaper choice for applications
 * that use the OpenTelemetry SDK directly. Needs only {@code opentelemetry-api} on the class path.
 */
package io.kestrel.rpc.observability.otel;
