package io.kestrel.rpc.perf.compare.system;

import com.alibaba.fastjson2.JSON;
import io.kestrel.rpc.demo.bid.BidRequest;
import io.kestrel.rpc.perf.support.BenchmarkService;
import io.kestrel.rpc.perf.support.Workload;
import java.nio.charset.StandardCharsets;

/**
 * The REST/JSON face of {@link BenchmarkService}, shared by the Tomcat and Netty HTTP servers and
 * their client, so both baselines parse and produce exactly the same JSON with fastjson2:
 *
 * <pre>
 * POST /bid                  body: BidRequest JSON   -> BidResponse JSON
 * POST /echo                 body: JSON string       -> JSON string
 * GET  /exists?id={long}                             -> true | false
 * </pre>
 */
final class RestRoutes {
    static final String JSON_TYPE = "application/json";

    private final BenchmarkService service;

    RestRoutes(BenchmarkService service) {
        this.service = service;
    }

    /** HTTP method of a workload's request. */
    static String method(Workload w) {
        return w == Workload.EXISTS ? "GET" : "POST";
    }

    /** Request URI of a workload. */
    static String uri(Workload w) {
        return switch (w) {
            case BID -> "/bid";
            case ECHO_50K -> "/echo";
            case EXISTS -> "/exists?id=" + Workload.EXISTS_ID;
        };
    }

    /** Request body of a workload (empty for GET). */
    static byte[] body(Workload w, Object argument) {
        return w == Workload.EXISTS ? new byte[0] : JSON.toJSONBytes(argument);
    }

    /** Type the response body is parsed into. */
    static Class<?> resultType(Workload w) {
        return switch (w) {
            case BID -> io.kestrel.rpc.demo.bid.BidResponse.class;
            case ECHO_50K -> String.class;
            case EXISTS -> Boolean.class;
        };
    }

    /**
     * An HTTP answer: status code and body.
     *
     * @param status 200, 404 (no route) or 400 (malformed request, or the service failed)
     * @param body JSON on 200, a plain-text reason otherwise
     */
    record Reply(int status, byte[] body) {
    }

    /** Answers one request, as both servers send it. */
    Reply reply(String method, String uri, byte[] body) {
        try {
            byte[] json = handle(method, uri, body);
            if (json == null) {
                return new Reply(404, ("no route for " + method + " " + uri).getBytes(StandardCharsets.UTF_8));
            }
            return new Reply(200, json);
        } catch (RuntimeException e) {
            return new Reply(400, String.valueOf(e).getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * Handles one request.
     *
     * @return the JSON response body, or null if no route matches
     * @throws IllegalArgumentException for a malformed request (answer 400)
     */
    private byte[] handle(String method, String uri, byte[] body) {
        if ("POST".equals(method) && "/bid".equals(uri)) {
            BidRequest request = JSON.parseObject(body, BidRequest.class);
            if (request == null) {
                throw new IllegalArgumentException("empty bid request");
            }
            return JSON.toJSONBytes(service.bid(request));
        }
        if ("POST".equals(method) && "/echo".equals(uri)) {
            return JSON.toJSONBytes(service.echo(JSON.parseObject(body, String.class)));
        }
        if ("GET".equals(method) && uri.startsWith("/exists?id=")) {
            long id;
            try {
                id = Long.parseLong(uri.substring("/exists?id=".length()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("id must be a long: " + uri, e);
            }
            return JSON.toJSONBytes(service.exists(id));
        }
        return null;
    }
}
