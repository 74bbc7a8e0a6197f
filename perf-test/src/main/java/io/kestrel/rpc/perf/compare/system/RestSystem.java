package io.kestrel.rpc.perf.compare.system;

import com.alibaba.fastjson2.JSON;
import io.kestrel.rpc.perf.support.ResultCheck;
import io.kestrel.rpc.perf.support.Workload;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;

/**
 * Common client half of the REST/JSON baselines: a keep-alive HTTP/1.1 client on Netty
 * ({@link HttpClientCodec} + {@link HttpObjectAggregator}), one connection per load thread. Each
 * call encodes the argument with fastjson2, sends it, and parses the JSON answer on the calling
 * thread, as a typical REST client does. Wire bytes are counted at the head of the pipeline.
 */
abstract class RestSystem implements BenchSystem {
    static final int MAX_CONTENT_BYTES = 16 * 1024 * 1024;

    protected final SystemSettings settings;

    RestSystem(SystemSettings settings) {
        this.settings = settings;
    }

    @Override
    public long argumentBytes(Workload workload) {
        return RestRoutes.body(workload, workload.argument()).length;
    }

    @Override
    public BenchClient openClient(String host, int port) {
        String hostHeader = host + ":" + port;
        return new NettyClient(name() + "-client", host, port, settings.callTimeout(), p -> p
                .addLast("http", new HttpClientCodec())
                .addLast("aggregate", new HttpObjectAggregator(MAX_CONTENT_BYTES)), (workload, connection) -> {
                    Object argument = workload.argument();
                    Object expected = workload.expectedResult();
                    HttpMethod method = HttpMethod.valueOf(RestRoutes.method(workload));
                    String uri = RestRoutes.uri(workload);
                    Class<?> resultType = RestRoutes.resultType(workload);
                    return new Caller() {
                        @Override
                        public void call() throws Exception {
                            byte[] body = RestRoutes.body(workload, argument);
                            FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, method, uri,
                                    Unpooled.wrappedBuffer(body));
                            request.headers()
                                    .set(HttpHeaderNames.HOST, hostHeader)
                                    .set(HttpHeaderNames.ACCEPT, RestRoutes.JSON_TYPE)
                                    .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE)
                                    .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
                            if (body.length > 0) {
                                request.headers().set(HttpHeaderNames.CONTENT_TYPE, RestRoutes.JSON_TYPE);
                            }
                            FullHttpResponse response = (FullHttpResponse) connection.exchange(request,
                                    settings.callTimeout());
                            byte[] answer;
                            try {
                                if (!HttpResponseStatus.OK.equals(response.status())) {
                                    throw new IllegalStateException(uri + " answered " + response.status() + ": "
                                            + response.content().toString(StandardCharsets.UTF_8));
                                }
                                answer = ByteBufUtil.getBytes(response.content());
                            } finally {
                                response.release();
                            }
                            ResultCheck.check(workload, expected, JSON.parseObject(answer, resultType));
                        }

                        @Override
                        public void close() {
                            connection.close();
                        }
                    };
                });
    }
}
