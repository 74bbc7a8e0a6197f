package io.kestrel.rpc.spring.boot;

import io.kestrel.rpc.testing.Await;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/** GETs over real HTTP, and bounded polling. */
public final class Http {
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private Http() {
    }

    /** Status code and body. */
    public record Response(int status, String body) {
    }

    public static Response get(int port, String path) throws IOException, InterruptedException {
        HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
        return new Response(r.statusCode(), r.body());
    }

    /** The JSON object that follows {@code "name":} in {@code json}, braces matched; fails when absent. */
    static String object(String json, String name) {
        int start = json.indexOf("\"" + name + "\":{");
        if (start < 0) {
            throw new AssertionError("no \"" + name + "\" object in " + json);
        }
        int i = json.indexOf('{', start);
        int depth = 0;
        for (int j = i; j < json.length(); j++) {
            char ch = json.charAt(j);
            if (ch == '{') {
                depth++;
            } else if (ch == '}' && --depth == 0) {
                return json.substring(i, j + 1);
            }
        }
        throw new AssertionError("unbalanced JSON: " + json);
    }

    /** Whether the health component {@code name} in {@code json} has the given status. */
    public static boolean status(String json, String name, String status) {
        String o = object(json, name);
        return o.endsWith("\"status\":\"" + status + "\"}") || o.startsWith("{\"status\":\"" + status + "\"");
    }

    /** As {@link Await#until(String, Duration, BooleanSupplier)}. */
    public static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        Await.until(what, timeout, condition);
    }
}
