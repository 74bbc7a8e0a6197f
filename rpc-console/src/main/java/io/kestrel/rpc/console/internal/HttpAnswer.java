package io.kestrel.rpc.console.internal;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One answer of the console, with the headers every answer carries: no caching, no sniffing, no framing, a
 * content security policy that runs only the console's own script and style (no inline script, so data that
 * slipped into markup could not run), and no CORS header at all.
 */
record HttpAnswer(int status, String contentType, byte[] body, Map<String, String> extraHeaders) {
    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
            + " connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

    static HttpAnswer json(int status, Object value) {
        return new HttpAnswer(status, "application/json; charset=utf-8",
                Json.write(value).getBytes(StandardCharsets.UTF_8), Map.of());
    }

    static HttpAnswer error(int status, String message) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", status);
        body.put("error", message);
        return json(status, body);
    }

    HttpAnswer withHeader(String name, String value) {
        Map<String, String> headers = new LinkedHashMap<>(extraHeaders);
        headers.put(name, value);
        return new HttpAnswer(status, contentType, body, headers);
    }

    FullHttpResponse toResponse() {
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status),
                Unpooled.wrappedBuffer(body));
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        r.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
        r.headers().set("X-Content-Type-Options", "nosniff");
        r.headers().set("X-Frame-Options", "DENY");
        r.headers().set("Referrer-Policy", "no-referrer");
        r.headers().set("Content-Security-Policy", CSP);
        extraHeaders.forEach((k, v) -> r.headers().set(k, v));
        return r;
    }
}
