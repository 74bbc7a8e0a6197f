/**
 * Actuator support: the {@code kestrel} endpoint and the health contributors (Spring Boot 4's health API, and
 * Boot 3's through a reflective adapter).
 */
package io.kestrel.rpc.spring.boot.actuate;
