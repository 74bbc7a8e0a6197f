package io.kestrel.rpc.core.internal.shared;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.RpcContext;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.TestRuntimes;
import io.kestrel.rpc.core.fixture.HopService;
import io.kestrel.rpc.core.fixture.HopServiceImpl;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Interceptors listed in {@code META-INF/services}, seen through the thread's context class loader
 * (a loader of this test's own, so the entries do not reach the module's other tests).
 */
class ServiceLoadedInterceptorTest {
    @TempDir
    Path dir;

    /** Adds "client=loaded" to every request. */
    public static final class TaggingClient implements ClientInterceptor {
        @Override
        public CompletableFuture<Object> intercept(Chain chain) {
            chain.call().requestAttachments().put("client", "loaded");
            return chain.proceed();
        }
    }

    /** Answers every call with "server=loaded" and what the client interceptor sent. */
    public static final class TaggingServer implements ServerInterceptor {
        @Override
        public CompletableFuture<Object> intercept(Chain chain) {
            chain.call().responseAttachments().put("server", "loaded");
            chain.call().responseAttachments().put("client-seen", String.valueOf(chain.call().requestAttachments().get("client")));
            return chain.proceed();
        }
    }

    private <T> T withServices(String client, String server, Supplier<T> body) throws Exception {
        Path services = Files.createDirectories(dir.resolve("META-INF/services"));
        Files.writeString(services.resolve(ClientInterceptor.class.getName()), "# test\n" + client + "\n");
        Files.writeString(services.resolve(ServerInterceptor.class.getName()), server + "\n");
        Thread t = Thread.currentThread();
        ClassLoader previous = t.getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
            t.setContextClassLoader(loader);
            return body.get();
        } finally {
            t.setContextClassLoader(previous);
        }
    }

    @Test
    void listedInterceptorsRunOnBothSidesUnlessTurnedOff() throws Exception {
        HopServiceImpl impl = new HopServiceImpl();
        RpcRuntime[] runtimes = withServices(TaggingClient.class.getName(), TaggingServer.class.getName(),
                () -> new RpcRuntime[] {RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).build(),
                        RpcRuntime.builder().build(), RpcRuntime.builder().loadInterceptors(false).build()});
        try (RpcRuntime provider = runtimes[0]; RpcRuntime consumer = runtimes[1]; RpcRuntime plain = runtimes[2]) {
            provider.export(ServiceConfig.builder(HopService.class, impl).build());
            String url = "127.0.0.1:" + provider.boundPort();
            HopService hop = consumer.refer(ReferenceConfig.builder(HopService.class).url(url).build());
            assertEquals("x", hop.echo("x"));
            assertEquals("loaded", RpcContext.current().getResponseAttachment("server"));
            assertEquals("loaded", RpcContext.current().getResponseAttachment("client-seen"));
            HopService plainHop = plain.refer(ReferenceConfig.builder(HopService.class).url(url).build());
            assertEquals("x", plainHop.echo("x"));
            assertEquals("null", RpcContext.current().getResponseAttachment("client-seen"));
        } finally {
            impl.close();
        }
    }

    @Test
    void anEntryThatCannotBeLoadedFailsStartupNamingItAndTheWayOut() throws Exception {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> withServices(
                "com.example.NoSuchInterceptor", TaggingServer.class.getName(), () -> RpcRuntime.builder().build()));
        assertTrue(e.getMessage().contains("Cannot load an interceptor listed in META-INF/services/"
                + ClientInterceptor.class.getName()), e.getMessage());
        assertTrue(e.getMessage().contains("com.example.NoSuchInterceptor"), e.getMessage());
        assertTrue(e.getMessage().contains("loadInterceptors(false)"), e.getMessage());
    }
}
