package io.kestrel.rpc.spring;

import java.util.Map;
import org.springframework.context.support.GenericXmlApplicationContext;
import org.springframework.core.env.MapPropertySource;

/** Builds real Spring contexts for the tests, with properties put first in their Environment. */
final class TestContexts {
    private TestContexts() {
    }

    /** A refreshed XML context from a classpath resource next to this class. */
    static GenericXmlApplicationContext xml(String resource, Map<String, Object> properties) {
        GenericXmlApplicationContext ctx = new GenericXmlApplicationContext();
        ctx.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test", properties));
        ctx.load("classpath:io/kestrel/rpc/spring/" + resource);
        ctx.refresh();
        return ctx;
    }

    /** The message of {@code t} and of all its causes, to assert on what the user gets to read. */
    static String messages(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            sb.append(c.getClass().getSimpleName()).append(": ").append(c.getMessage()).append('\n');
        }
        return sb.toString();
    }
}
