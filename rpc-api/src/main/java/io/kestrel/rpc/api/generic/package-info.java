/**
 * Generic invocation: calling a service by its interface name, method name and parameter type names
 * with arguments as plain trees (maps, lists, strings, numbers, booleans, null), without the
 * service's interface class, and the service metadata a provider describes itself with.
 */
package io.kestrel.rpc.api.generic;
