/**
 * A small user-account model and the {@link io.kestrel.rpc.demo.user.UserService} contract used by
 * the demos. Plain serializable Java beans; no implementation of the service lives here.
 */
package io.kestrel.rpc.demo.user;
