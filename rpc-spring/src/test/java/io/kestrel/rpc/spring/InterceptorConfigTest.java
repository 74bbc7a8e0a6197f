package io.kestrel.rpc.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.RpcContext;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.spring.fixture.GreetingService;
import io.kestrel.rpc.spring.fixture.GreetingServiceImpl;
import io.kestrel.rpc.spring.fixture.TaggingInterceptors;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.support.GenericXmlApplicationContext;

/**
 * Interceptors and per-method limits in Spring: beans of the interceptor types apply to the whole
 * context's runtime; the {@code interceptors} attribute names classes for one service or reference;
 * {@code executes}, {@code actives}, {@code propagate-deadline} reach the configs. Real contexts,
 * real ZooKeeper, real sockets.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InterceptorConfigTest {
    private static TestingServer zookeeper;
    private static String zk;

    @BeforeAll
    static void start() throws Exception {
        zookeeper = new TestingServer(true);
        zk = "zookeeper://" + zookeeper.getConnectString();
    }

    @AfterAll
    static void stop() throws Exception {
        zookeeper.close();
    }

    @Test
    void xmlBeansApplyToAllAndAttributesToOne() {
        try (GenericXmlApplicationContext provider = TestContexts.xml("interceptor-provider.xml", Map.of("zk", zk));
             GenericXmlApplicationContext consumer = TestContexts.xml("interceptor-consumer.xml", Map.of("zk", zk))) {
            GreetingService greeter = consumer.getBean("greeter", GreetingService.class);
            assertEquals("hello ann from xml", greeter.greet("ann"));
            assertEquals(Map.of("server-bean", "yes", "server-service", "yes", "client-bean", "yes",
                    "client-reference", "yes"), RpcContext.current().getResponseAttachments());

            GreetingService plain = consumer.getBean("plainGreeter", GreetingService.class);
            assertEquals("hello bob from xml", plain.greet("bob"));
            assertEquals(Map.of("server-bean", "yes", "server-service", "yes", "client-bean", "yes"),
                    RpcContext.current().getResponseAttachments(), "the reference-only interceptor ran for another reference");

            ServiceConfig<?> service = provider.getBean(ServiceBean.class).getServiceConfig();
            assertEquals(3, service.executes());
            assertEquals(1, service.interceptors().size());
            ReferenceConfig<?> reference = consumer.getBean("&greeter", ReferenceBean.class).getReferenceConfig();
            assertEquals(5, reference.actives());
            assertFalse(reference.propagateDeadline());
            assertTrue(consumer.getBean("&plainGreeter", ReferenceBean.class).getReferenceConfig().propagateDeadline());
        }
    }

    @RpcService(executes = "2", interceptors = TaggingInterceptors.ServiceServer.class)
    static class AnnotatedGreeter extends GreetingServiceImpl {
        AnnotatedGreeter() {
            super("annotated");
        }
    }

    @Configuration
    @EnableKestrelRpc
    @Import(AnnotatedGreeter.class)
    static class ProviderConfig {
        @Bean
        TaggingInterceptors.BeanServer beanServer() {
            return new TaggingInterceptors.BeanServer();
        }
    }

    static class Client {
        @RpcReference(actives = "4", interceptors = TaggingInterceptors.ReferenceClient.class)
        GreetingService greeter;
    }

    @Configuration
    @EnableKestrelRpc
    static class ConsumerConfig {
        @Bean
        Client client() {
            return new Client();
        }

        @Bean
        TaggingInterceptors.BeanClient beanClient() {
            return new TaggingInterceptors.BeanClient();
        }
    }

    @Test
    void annotationConfigPicksUpInterceptorBeansAndAttributes() {
        Map<String, Object> common = Map.of("rpc.registry.address", zk, "rpc.registry.root", "/annotated-interceptors",
                "rpc.protocol.port", "0");
        try (AnnotationConfigApplicationContext provider = AnnotationConfigTest.context(ProviderConfig.class, common);
             AnnotationConfigApplicationContext consumer = AnnotationConfigTest.context(ConsumerConfig.class, common)) {
            assertEquals("hello ann from annotated", consumer.getBean(Client.class).greeter.greet("ann"));
            assertEquals(Map.of("server-bean", "yes", "server-service", "yes", "client-bean", "yes",
                    "client-reference", "yes"), RpcContext.current().getResponseAttachments());
        }
    }

    @Test
    void executesDefaultsToTheEnvironmentWhenTheServiceSetsNone() {
        try (GenericXmlApplicationContext provider = TestContexts.xml("provider.xml", Map.of("zk", zk, "tag", "env",
                "root", "/executes-default", "rpc.service.executes", "7"))) {
            assertEquals(7, provider.getBean(ServiceBean.class).getServiceConfig().executes());
        }
        try (GenericXmlApplicationContext provider = TestContexts.xml("interceptor-provider.xml", Map.of("zk", zk,
                "rpc.service.executes", "7"))) {
            assertEquals(3, provider.getBean(ServiceBean.class).getServiceConfig().executes(), "the attribute wins");
        }
    }

    @Test
    void anInterceptorClassThatCannotBeUsedIsNamedWithTheAttribute() {
        BeanCreationException e = assertThrows(BeanCreationException.class, () -> TestContexts.xml(
                "interceptor-consumer.xml", Map.of("zk", zk, "reference.interceptors", "com.example.Missing")).close());
        String messages = TestContexts.messages(e);
        assertTrue(messages.contains("<rpc:reference id=\"greeter\" interface=\"" + GreetingService.class.getName()
                + "\">"), messages);
        assertTrue(messages.contains("'interceptors' = \"com.example.Missing\": class com.example.Missing is not on"
                + " the classpath"), messages);
    }

    @Test
    void callbacksComeFromTheEnvironmentAndAWrongValueFailsStartupNamingTheChoices() throws Exception {
        try (GenericXmlApplicationContext provider = TestContexts.xml("interceptor-provider.xml", Map.of("zk", zk));
             GenericXmlApplicationContext consumer = TestContexts.xml("interceptor-consumer.xml", Map.of("zk", zk,
                     "rpc.callbacks", "direct"))) {
            GreetingService greeter = consumer.getBean("plainGreeter", GreetingService.class);
            // rpc.callbacks=direct: futures complete on the I/O thread that read the answer, never on kestrel-callback-N
            // (a stage attached after the answer came runs on the calling thread, hence several calls)
            java.util.Set<String> threads = new java.util.TreeSet<>();
            int onEventLoop = 0;
            for (int i = 0; i < 20; i++) {
                String where = greeter.greetAsync("ann").thenApply(r -> Thread.currentThread().getName() + " "
                        + (io.netty.util.internal.ThreadExecutorMap.currentExecutor() != null)).get(10, TimeUnit.SECONDS);
                threads.add(where);
                onEventLoop += where.endsWith(" true") ? 1 : 0;
            }
            assertTrue(onEventLoop > 0 && threads.stream().noneMatch(t -> t.startsWith("kestrel-callback-")),
                    threads.toString());
        }
        BeanCreationException e = assertThrows(BeanCreationException.class, () -> TestContexts.xml(
                "interceptor-consumer.xml", Map.of("zk", zk, "rpc.callbacks", "fast")).close());
        String messages = TestContexts.messages(e);
        assertTrue(messages.contains("callbacks \"fast\" is not one of pool"), messages);
    }
}
