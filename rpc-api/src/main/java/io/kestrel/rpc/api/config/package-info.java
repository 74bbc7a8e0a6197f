/**
 * Typed, immutable configuration: one object per concept, each built with a builder that validates
 * every value and names the offending one. Strings from XML, annotations or the registry are parsed
 * into these objects once, at the edge.
 */
package io.kestrel.rpc.api.config;
