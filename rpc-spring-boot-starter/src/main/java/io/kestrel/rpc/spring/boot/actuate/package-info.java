/**
 * Actuator support: the {@code kestrel} endpoint and the health contributors (Spring Boot 4's health API).
 */
package io.kestrel.rpc.spring.boot.actuate;
