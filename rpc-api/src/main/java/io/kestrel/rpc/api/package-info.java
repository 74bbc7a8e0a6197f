/**
 * The public API of Kestrel RPC: exceptions, the call context and the configuration and extension
 * packages below. Depends on the JDK and the SLF4J API only.
 */
package io.kestrel.rpc.api;
