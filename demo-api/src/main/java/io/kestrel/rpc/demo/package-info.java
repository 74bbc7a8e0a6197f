/** Demo service interfaces and models shared by demo provider and consumer. */
package io.kestrel.rpc.demo;
