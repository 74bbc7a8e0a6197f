package io.kestrel.rpc.api.generic;

/** What shape a type takes as a plain tree; enough to choose an input field for it. */
public enum TypeKind {
    /** {@code void} or {@code Void}: no value. */
    VOID,
    /** boolean or Boolean: a tree {@code Boolean}. */
    BOOLEAN,
    /** A number type (primitive or boxed, BigInteger, BigDecimal): a tree {@code Number}. */
    NUMBER,
    /** String, char, Character and other JDK values written as text (UUID, URI, Locale, ...): a tree {@code String}. */
    STRING,
    /** An enum: its constant's name as a tree {@code String}; see {@link TypeDetails#constants()}. */
    ENUM,
    /** A date or time (Date, Instant, LocalDate, ...): an ISO-8601 {@code String} (epoch millis accepted for Date and Instant). */
    DATE_TIME,
    /** {@code byte[]}: a Base64 {@code String} (a list of numbers is accepted too). */
    BYTES,
    /** A collection or array: a tree {@code List}; its element type is {@link TypeInfo#arguments()}{@code .get(0)}. */
    COLLECTION,
    /** A map: a tree {@code Map} with string keys; key and value types are {@link TypeInfo#arguments()}. */
    MAP,
    /** An Optional: the value's tree or null; the value type is {@link TypeInfo#arguments()}{@code .get(0)}. */
    OPTIONAL,
    /** A class or record of the application: a tree {@code Map} of its properties; see {@link TypeDetails}. */
    BEAN,
    /** {@code Object}, or a type the tree cannot describe further: any plain tree, passed on as it is. */
    ANY
}
