/** The hessian2 serialization (wire id 2), using Caucho hessian with an allowlist-checking serializer factory. */
package io.kestrel.rpc.serialization.hessian2;
