/**
 * What both sides use: the interceptor chain and the framework's own interceptors, serializers, the facts a provider
 * publishes for its consumers, signature checks, advertised addresses, process identity and the registry. Imports
 * neither side. Not part of the public API; may change without notice.
 */
package io.kestrel.rpc.core.internal.shared;
