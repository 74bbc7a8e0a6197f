/** Spring XML namespace and annotations on top of the bootstrap. */
package io.kestrel.rpc.spring;
