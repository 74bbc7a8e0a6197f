/**
 * The {@code http://kestrel.io/schema/rpc} XML namespace: handler and parsers turning its elements into
 * the beans of {@link io.kestrel.rpc.spring}. The schema is {@code META-INF/kestrel-rpc.xsd}, published
 * as {@code http://kestrel.io/schema/rpc/kestrel-rpc.xsd}.
 */
package io.kestrel.rpc.spring.schema;
