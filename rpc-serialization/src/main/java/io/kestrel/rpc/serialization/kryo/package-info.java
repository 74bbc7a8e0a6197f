/** The kryo serialization (wire id 8): pooled Kryo instances, references on, allowlist-checked class names. */
package io.kestrel.rpc.serialization.kryo;
