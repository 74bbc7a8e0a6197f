/**
 * Conversion of configuration text (XML attributes, annotation attributes, Spring {@code Environment}
 * properties) into the typed config objects of rpc-api. Not part of the public API; may change without
 * notice.
 */
package io.kestrel.rpc.spring.internal;
