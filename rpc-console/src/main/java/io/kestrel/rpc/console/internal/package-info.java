/**
 * The console's HTTP server, JSON endpoints, access checks and live call figures. Not part of the public
 * API; may change without notice.
 */
package io.kestrel.rpc.console.internal;
