/** Demo provider, exposed with Spring XML. */
package io.kestrel.rpc.demo.provider;
