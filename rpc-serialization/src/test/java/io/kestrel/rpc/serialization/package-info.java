/** Tests run over every installed serialization: round-trips, sizes, allowlist refusals, malformed input. */
package io.kestrel.rpc.serialization;
