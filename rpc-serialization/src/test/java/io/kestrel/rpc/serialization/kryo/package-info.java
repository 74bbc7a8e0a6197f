/** Tests of the kryo serialization's kryo-only features. */
package io.kestrel.rpc.serialization.kryo;
