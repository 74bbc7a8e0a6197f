/**
 * Interceptors: the one extension point for cross-cutting behaviour around calls, on the consumer
 * ({@link io.kestrel.rpc.api.interceptor.ClientInterceptor}) and on the provider
 * ({@link io.kestrel.rpc.api.interceptor.ServerInterceptor}). Each is one method and a chain, in the
 * spirit of OkHttp's interceptors; the call is described by a {@link io.kestrel.rpc.api.interceptor.CallInfo}.
 */
package io.kestrel.rpc.api.interceptor;
