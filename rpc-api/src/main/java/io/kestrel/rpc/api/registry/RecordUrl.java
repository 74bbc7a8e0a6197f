package io.kestrel.rpc.api.registry;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The URL shape shared by provider and consumer records, {@code scheme://authority/interface?k=v&...}, with
 * names and values URL-encoded: split into its parts, and the encoding both records write with.
 *
 * @param authority what stands between the scheme and the first '/' ("host:port" or "host")
 * @param interfaceName the decoded path
 * @param params the decoded query parameters, in their order
 */
record RecordUrl(String authority, String interfaceName, Map<String, String> params) {

    /** @throws IllegalArgumentException if {@code url} does not start with {@code scheme} */
    static RecordUrl parse(String url, String scheme) {
        if (!url.startsWith(scheme)) {
            throw new IllegalArgumentException("does not start with " + scheme);
        }
        String rest = url.substring(scheme.length());
        int slash = rest.indexOf('/');
        int q = rest.indexOf('?', slash);
        String iface = decode(q < 0 ? rest.substring(slash + 1) : rest.substring(slash + 1, q));
        Map<String, String> params = new LinkedHashMap<>();
        if (q >= 0) {
            for (String kv : rest.substring(q + 1).split("&")) {
                int eq = kv.indexOf('=');
                if (eq > 0) {
                    params.put(decode(kv.substring(0, eq)), decode(kv.substring(eq + 1)));
                }
            }
        }
        return new RecordUrl(rest.substring(0, slash), iface, params);
    }

    static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
