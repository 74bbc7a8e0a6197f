package io.kestrel.rpc.api;

import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * How far a consumer trusts what providers and the registry tell it: a provider or a registry writer
 * may be hostile, and a consumer bounds what either can make it do. JVM-wide settings, read once
 * (see {@code docs/consumer-defences.md}):
 * <ul>
 *   <li>{@value #FRAME_TIMEOUT_PROPERTY} (default {@value #DEFAULT_FRAME_TIMEOUT_MILLIS} ms): a response
 *       frame still incomplete this long after its first byte closes the connection; the calls on it fail.</li>
 *   <li>{@value #MEMORY_BUDGET_PROPERTY} (default a quarter of the heap, at least 64 MiB, at most 1 GiB): bytes
 *       of response bodies all connections may hold at once; frames still arriving use at most half of it.
 *       A response that does not fit fails its call and is skipped as it arrives.</li>
 *   <li>{@value #MAX_PROVIDER_TIMEOUT_PROPERTY} (default {@value #DEFAULT_MAX_PROVIDER_TIMEOUT_MILLIS} ms): a
 *       {@code timeout} published by a provider above it is lowered to it (a reference's own timeout is
 *       not).</li>
 *   <li>{@value #MAX_PROVIDERS_PROPERTY} (default {@value #DEFAULT_MAX_PROVIDERS}): providers one reference
 *       connects to; records beyond are ignored (the ones already connected are kept first).</li>
 *   <li>{@value #ADOPT_UNBOUNDED_PROPERTY} (default empty): serializations whose reader cannot bound its
 *       work (java, fastjson2) that a reference may adopt because a provider prefers them; a reference that
 *       sets {@code serialization} itself may use any.</li>
 *   <li>{@value #TOKEN_WITH_DEFAULT_TRUST_PROPERTY} (default false): whether a reference with a token and
 *       TLS but no {@code tls-trust} may send its token to any provider whose certificate the JDK's default
 *       trust store accepts.</li>
 *   <li>{@value #BIND_TOKEN_PROPERTY} (default false): a reference's token, of the form {@code <id>.<secret>}, is
 *       never sent; each connection sends a proof of the secret made for the provider's address instead, which
 *       no other provider accepts (the providers' authenticators must implement {@code secretOf}).</li>
 *   <li>{@value #ERROR_DECODE_THREADS_PROPERTY} (default {@value #DEFAULT_ERROR_DECODE_THREADS}): threads
 *       that decode the exceptions providers return, off the I/O threads; when they are all busy (with
 *       {@value #ERROR_DECODE_QUEUE} waiting), an exception is rebuilt from its class name and message.</li>
 *   <li>{@value #MAX_ERROR_MESSAGE_PROPERTY} (default {@value #DEFAULT_MAX_ERROR_MESSAGE_BYTES}): bytes of a
 *       provider's error message (and exception class name) kept; the rest is cut, the message saying so.</li>
 * </ul>
 */
public final class ConsumerLimits {
    public static final String FRAME_TIMEOUT_PROPERTY = "kestrel.rpc.consumer.frameTimeoutMillis";
    public static final String MEMORY_BUDGET_PROPERTY = "kestrel.rpc.consumer.memoryBudgetBytes";
    public static final String MAX_PROVIDER_TIMEOUT_PROPERTY = "kestrel.rpc.consumer.maxProviderTimeoutMillis";
    public static final String MAX_PROVIDERS_PROPERTY = "kestrel.rpc.consumer.maxProviders";
    public static final String ADOPT_UNBOUNDED_PROPERTY = "kestrel.rpc.consumer.adoptUnboundedSerializations";
    public static final String TOKEN_WITH_DEFAULT_TRUST_PROPERTY = "kestrel.rpc.consumer.tokenWithDefaultTrust";
    public static final String BIND_TOKEN_PROPERTY = "kestrel.rpc.consumer.bindToken";
    public static final String ERROR_DECODE_THREADS_PROPERTY = "kestrel.rpc.consumer.errorDecodeThreads";
    public static final String MAX_ERROR_MESSAGE_PROPERTY = "kestrel.rpc.consumer.maxErrorMessageBytes";

    public static final long DEFAULT_FRAME_TIMEOUT_MILLIS = 30_000;
    public static final long DEFAULT_MAX_PROVIDER_TIMEOUT_MILLIS = 300_000;
    public static final int DEFAULT_MAX_PROVIDERS = 1000;
    public static final int DEFAULT_ERROR_DECODE_THREADS = 2;
    public static final int DEFAULT_MAX_ERROR_MESSAGE_BYTES = 16 * 1024;
    /** Exceptions waiting for a decoding thread, at most, per error-decode thread. */
    public static final int ERROR_DECODE_QUEUE = 256;

    private static final long FRAME_TIMEOUT = positive(FRAME_TIMEOUT_PROPERTY, DEFAULT_FRAME_TIMEOUT_MILLIS);
    private static final long MEMORY_BUDGET = positive(MEMORY_BUDGET_PROPERTY,
            Math.max(64L << 20, Math.min(1L << 30, Runtime.getRuntime().maxMemory() / 4)));
    private static final long MAX_PROVIDER_TIMEOUT = positive(MAX_PROVIDER_TIMEOUT_PROPERTY,
            DEFAULT_MAX_PROVIDER_TIMEOUT_MILLIS);
    private static final int MAX_PROVIDERS = (int) Math.min(Integer.MAX_VALUE,
            positive(MAX_PROVIDERS_PROPERTY, DEFAULT_MAX_PROVIDERS));
    private static final Set<String> ADOPT_UNBOUNDED = names(System.getProperty(ADOPT_UNBOUNDED_PROPERTY, ""));
    private static final boolean TOKEN_WITH_DEFAULT_TRUST = Boolean.getBoolean(TOKEN_WITH_DEFAULT_TRUST_PROPERTY);
    private static final boolean BIND_TOKEN = Boolean.getBoolean(BIND_TOKEN_PROPERTY);
    private static final int ERROR_DECODE_THREADS = (int) Math.min(64,
            positive(ERROR_DECODE_THREADS_PROPERTY, DEFAULT_ERROR_DECODE_THREADS));
    private static final int MAX_ERROR_MESSAGE = (int) Math.min(Integer.MAX_VALUE,
            positive(MAX_ERROR_MESSAGE_PROPERTY, DEFAULT_MAX_ERROR_MESSAGE_BYTES));

    private ConsumerLimits() {
    }

    /** Milliseconds a response frame may take from its first byte to its last. */
    public static long frameTimeoutMillis() {
        return FRAME_TIMEOUT;
    }

    /** Bytes of response bodies the consumer's connections may hold together. */
    public static long memoryBudgetBytes() {
        return MEMORY_BUDGET;
    }

    /** The longest provider-published timeout used as it is, in milliseconds. */
    public static long maxProviderTimeoutMillis() {
        return MAX_PROVIDER_TIMEOUT;
    }

    /** Providers one reference uses at most. */
    public static int maxProviders() {
        return MAX_PROVIDERS;
    }

    /** Whether a reference may adopt the unbounded serialization {@code name} from a provider's preference. */
    public static boolean mayAdoptUnbounded(String name) {
        return ADOPT_UNBOUNDED.contains(name.toLowerCase(Locale.ROOT));
    }

    /** Whether a token may travel over TLS verified only by the JDK's default trust store. */
    public static boolean tokenWithDefaultTrust() {
        return TOKEN_WITH_DEFAULT_TRUST;
    }

    /**
     * Whether a reference's token ({@code <id>.<secret>}) is sent as a proof bound to the provider it connects
     * to rather than as it is (the provider's authenticator must support {@code secretOf}).
     */
    public static boolean bindToken() {
        return BIND_TOKEN;
    }

    /** Threads decoding providers' exceptions. */
    public static int errorDecodeThreads() {
        return ERROR_DECODE_THREADS;
    }

    /** Bytes of a provider's error text kept. */
    public static int maxErrorMessageBytes() {
        return MAX_ERROR_MESSAGE;
    }

    private static Set<String> names(String list) {
        return Arrays.stream(list.split(",")).map(s -> s.trim().toLowerCase(Locale.ROOT)).filter(s -> !s.isEmpty())
                .collect(Collectors.toUnmodifiableSet());
    }

    private static long positive(String property, long fallback) {
        String v = System.getProperty(property);
        if (v == null || v.isBlank()) {
            return fallback;
        }
        try {
            long n = Long.parseLong(v.trim().replace("_", ""));
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException("system property " + property + " must be a positive whole number, was '"
                + v + "'");
    }
}
