/** Tests of the fst serialization's JVM checks. */
package io.kestrel.rpc.serialization.fst;
