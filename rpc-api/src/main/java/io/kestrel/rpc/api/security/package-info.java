/** Caller identity on the provider: who called (mutual TLS, tokens) and the authenticator SPI. */
package io.kestrel.rpc.api.security;
