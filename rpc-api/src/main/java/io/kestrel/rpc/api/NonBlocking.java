package io.kestrel.rpc.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a service method (or every method of a service interface) that never blocks: with the
 * default {@link io.kestrel.rpc.api.config.Dispatch#AUTO dispatch}, the provider runs it on the
 * connection's I/O thread instead of handing it to the business executor, which saves the hand-off
 * on a small call. Put it on the interface's method or on the interface; the implementation's
 * annotations are not read. See {@link io.kestrel.rpc.api.config.Dispatch} for what "never blocks"
 * means and what is refused.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface NonBlocking {
}
