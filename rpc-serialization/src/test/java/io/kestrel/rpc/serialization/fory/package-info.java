/** Tests specific to the fory serialization: registration, modes, and running without {@code --add-opens}. */
package io.kestrel.rpc.serialization.fory;
