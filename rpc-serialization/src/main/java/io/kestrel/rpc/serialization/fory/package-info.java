/**
 * The Apache Fory serialization (wire id 28): fory's Java mode with reference tracking, optional
 * schema-compatible mode, and every class name read checked against the allowlist through fory's
 * {@code TypeChecker} hook.
 */
package io.kestrel.rpc.serialization.fory;
