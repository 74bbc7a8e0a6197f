/** Test classes that the tests' allowlist does not allow; they record whether they were ever initialized. */
package io.kestrel.rpc.serialization.forbidden;
