package io.kestrel.rpc.perf.compare.system;

import io.kestrel.rpc.perf.server.BenchServer;
import io.kestrel.rpc.perf.support.BenchmarkServiceImpl;
import io.kestrel.rpc.perf.support.FileTrees;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * REST/JSON baseline on embedded Tomcat (NIO connector, default worker pool) with one plain servlet.
 * Keep-alive is unlimited so that connections are reused for the whole run, as with the other systems.
 */
public final class TomcatHttpSystem extends RestSystem {
    private static final Logger log = LoggerFactory.getLogger(TomcatHttpSystem.class);
    /** Tomcat logs its lifecycle through java.util.logging at INFO; held strongly so the level sticks. */
    private static final java.util.logging.Logger TOMCAT_LOG = java.util.logging.Logger.getLogger("org.apache");

    public TomcatHttpSystem(SystemSettings settings) {
        super(settings);
    }

    @Override
    public String name() {
        return "rest-tomcat";
    }

    @Override
    public String description() {
        return "REST/JSON (fastjson2) in a servlet on embedded Tomcat (NIO connector, default 200 worker threads); "
                + "keep-alive Netty HTTP client, bytes counted at the head of its pipeline";
    }

    @Override
    public BenchServer startServer() throws IOException, LifecycleException {
        TOMCAT_LOG.setLevel(java.util.logging.Level.WARNING);
        Path baseDir = Files.createTempDirectory("kestrel-perf-tomcat");
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(baseDir.toString());
        Connector connector = new Connector("org.apache.coyote.http11.Http11NioProtocol");
        connector.setPort(0);
        connector.setProperty("address", "127.0.0.1");
        connector.setProperty("maxKeepAliveRequests", "-1");
        connector.setProperty("tcpNoDelay", "true");
        tomcat.getService().addConnector(connector);
        tomcat.setConnector(connector);
        Context context = tomcat.addContext("", baseDir.toString());
        Tomcat.addServlet(context, "rest", new RestServlet(new RestRoutes(new BenchmarkServiceImpl())));
        context.addServletMappingDecoded("/*", "rest");
        tomcat.start();
        return BenchServer.of(connector.getLocalPort(), () -> {
            try {
                tomcat.stop();
                tomcat.destroy();
            } catch (LifecycleException e) {
                log.warn("Tomcat did not stop cleanly", e);
            }
            if (!FileTrees.deleteQuietly(baseDir)) {
                log.debug("Could not delete {}", baseDir);
            }
        });
    }

    /** Reads the whole body, routes it through {@link RestRoutes}, writes the JSON answer. */
    private static final class RestServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;
        private final transient RestRoutes routes;

        RestServlet(RestRoutes routes) {
            this.routes = routes;
        }

        @Override
        protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            String uri = req.getQueryString() == null ? req.getRequestURI() : req.getRequestURI() + "?" + req.getQueryString();
            byte[] body;
            try (InputStream in = req.getInputStream()) {
                body = in.readAllBytes();
            }
            RestRoutes.Reply reply = routes.reply(req.getMethod(), uri, body);
            resp.setStatus(reply.status());
            resp.setContentType(RestRoutes.JSON_TYPE);
            resp.setContentLength(reply.body().length);
            try (OutputStream out = resp.getOutputStream()) {
                out.write(reply.body());
            }
        }
    }
}
