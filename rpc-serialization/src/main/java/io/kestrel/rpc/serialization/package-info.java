/** Serializations (kryo, fst, hessian2, fastjson2, java) behind the rpc-api Serialization SPI. */
package io.kestrel.rpc.serialization;
