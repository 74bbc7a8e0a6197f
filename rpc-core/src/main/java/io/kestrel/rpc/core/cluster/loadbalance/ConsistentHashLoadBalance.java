package io.kestrel.rpc.core.cluster.loadbalance;

import io.kestrel.rpc.api.cluster.Candidate;
import io.kestrel.rpc.api.cluster.Invocation;
import io.kestrel.rpc.api.cluster.LoadBalance;
import io.kestrel.rpc.api.registry.ProviderInfo;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * "consistenthash": calls with the same first argument go to the same provider, and when a provider leaves
 * only the keys it served move (to their next provider on the ring); the others stay put.
 *
 * <p>Each provider gets {@value #DEFAULT_VIRTUAL_NODES} points (virtual nodes) on a 64-bit ring, from MD5
 * digests of its {@code host:port}; a call's key is {@code String.valueOf(arguments[0])} (arrays by their
 * contents; "" for a method without arguments, which therefore always goes to one provider), hashed with
 * MD5 as well, and goes to the first provider point at or after it. The key's {@code toString()} must be
 * value-based (strings, numbers, records): an identity {@code toString()} is not sticky. Weights are not
 * used, except that weight-0 providers get no points unless all weigh 0.
 *
 * <p>The ring is cached per service and method and rebuilt only when the candidate list differs from the
 * last one (a failover retry, which leaves out the provider already tried, rebuilds it too). Thread-safe.
 */
public final class ConsistentHashLoadBalance implements LoadBalance {
    /** The configuration name. */
    public static final String NAME = "consistenthash";
    /** Virtual nodes per provider by default. */
    public static final int DEFAULT_VIRTUAL_NODES = 160;

    private static final ThreadLocal<MessageDigest> MD5 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is required of every Java platform but is missing", e);
        }
    });

    private final int virtualNodes;
    private final ConcurrentMap<MethodKey, Ring> rings = new ConcurrentHashMap<>();

    /** With {@value #DEFAULT_VIRTUAL_NODES} virtual nodes per provider; for {@link java.util.ServiceLoader}. */
    public ConsistentHashLoadBalance() {
        this(DEFAULT_VIRTUAL_NODES);
    }

    /** @param virtualNodes points per provider on the ring, at least 1; more spreads keys more evenly */
    public ConsistentHashLoadBalance(int virtualNodes) {
        if (virtualNodes < 1) {
            throw new IllegalArgumentException("virtualNodes must be >= 1, was " + virtualNodes);
        }
        this.virtualNodes = virtualNodes;
    }

    @Override
    public String name() {
        return NAME;
    }

    /** @throws IllegalArgumentException if {@code candidates} is empty */
    @Override
    public <C extends Candidate> C select(List<C> candidates, Invocation invocation) {
        Candidates.requireNotEmpty(candidates, invocation, NAME);
        if (candidates.size() == 1) {
            return candidates.get(0);
        }
        MethodKey key = MethodKey.of(invocation);
        Ring ring = rings.get(key);
        if (ring == null || !ring.builtFrom(candidates)) {
            ring = new Ring(candidates, virtualNodes);
            rings.put(key, ring);
        }
        return candidates.get(ring.locate(hash(keyOf(invocation))));
    }

    /** The text a call is placed by: its first argument, arrays by content. */
    static String keyOf(Invocation invocation) {
        if (invocation == null || invocation.arguments() == null || invocation.arguments().length == 0) {
            return "";
        }
        Object arg = invocation.arguments()[0];
        if (arg != null && arg.getClass().isArray()) {
            String deep = Arrays.deepToString(new Object[] {arg});
            return deep.substring(1, deep.length() - 1);
        }
        return String.valueOf(arg);
    }

    private static long hash(String text) {
        byte[] d = MD5.get().digest(text.getBytes(StandardCharsets.UTF_8));
        return toLong(d, 0);
    }

    private static long toLong(byte[] b, int from) {
        long v = 0;
        for (int i = from; i < from + 8; i++) {
            v = (v << 8) | (b[i] & 0xFF);
        }
        return v;
    }

    /** Immutable ring: sorted points and, for each, the index of its provider in the list it was built from. */
    private static final class Ring {
        private final ProviderInfo[] providers;
        private final long[] points;
        private final int[] owners;

        Ring(List<? extends Candidate> candidates, int virtualNodes) {
            int n = candidates.size();
            providers = new ProviderInfo[n];
            boolean anyWeight = false;
            for (int i = 0; i < n; i++) {
                providers[i] = candidates.get(i).provider();
                anyWeight |= providers[i].weight() > 0;
            }
            TreeMap<Long, Integer> ring = new TreeMap<>();
            MessageDigest md5 = MD5.get();
            for (int i = 0; i < n; i++) {
                if (anyWeight && providers[i].weight() == 0) {
                    continue;
                }
                String address = providers[i].address();
                // Each 16-byte digest yields two 64-bit points.
                for (int v = 0; v * 2 < virtualNodes; v++) {
                    byte[] d = md5.digest((address + "#" + v).getBytes(StandardCharsets.UTF_8));
                    ring.putIfAbsent(toLong(d, 0), i);
                    if (v * 2 + 1 < virtualNodes) {
                        ring.putIfAbsent(toLong(d, 8), i);
                    }
                }
            }
            points = new long[ring.size()];
            owners = new int[ring.size()];
            int k = 0;
            for (Map.Entry<Long, Integer> e : ring.entrySet()) {
                points[k] = e.getKey();
                owners[k++] = e.getValue();
            }
        }

        boolean builtFrom(List<? extends Candidate> candidates) {
            if (candidates.size() != providers.length) {
                return false;
            }
            for (int i = 0; i < providers.length; i++) {
                if (candidates.get(i).provider() != providers[i]) {
                    return false;
                }
            }
            return true;
        }

        int locate(long hash) {
            int i = Arrays.binarySearch(points, hash);
            if (i < 0) {
                i = -i - 1;
            }
            return owners[i == points.length ? 0 : i];
        }
    }
}
