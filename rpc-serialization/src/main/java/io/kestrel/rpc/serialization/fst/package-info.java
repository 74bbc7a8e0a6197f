/**
 * The fst serialization (wire id 9). fst reflects into JDK internals and needs {@code --add-opens}
 * on JDK 17+; it checks for them when a serializer is created.
 */
package io.kestrel.rpc.serialization.fst;
