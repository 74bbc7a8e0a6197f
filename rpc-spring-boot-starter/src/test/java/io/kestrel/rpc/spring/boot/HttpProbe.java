package io.kestrel.rpc.spring.boot;

import java.io.IOException;
import java.time.Duration;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/** The actuator of one running web application, read over real HTTP, with bounded waits for what it reports. */
public final class HttpProbe {
    private static final Duration WAIT = Duration.ofSeconds(40);
    private final int port;

    public HttpProbe(ConfigurableApplicationContext app) {
        this.port = ((WebServerApplicationContext) app).getWebServer().getPort();
    }

    public Http.Response get(String path) throws IOException, InterruptedException {
        return Http.get(port, path);
    }

    /** Waits until {@code /actuator/health} contains {@code text}. */
    public void awaitHealthContains(String what, String text) throws InterruptedException {
        Http.await(what, WAIT, () -> answer("/actuator/health").body().contains(text));
    }

    /** Waits until {@code /actuator/health/readiness} answers {@code status}. */
    public void awaitReadiness(String what, int status) throws InterruptedException {
        Http.await(what, WAIT, () -> answer("/actuator/health/readiness").status() == status);
    }

    private Http.Response answer(String path) {
        try {
            return get(path);
        } catch (IOException | InterruptedException e) {
            throw new AssertionError("GET " + path + " on port " + port + " failed", e);
        }
    }
}
