package io.kestrel.rpc.transport.internal;

import java.lang.reflect.Method;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;

/**
 * Virtual threads when the JDK has them (21+), found at run time: the framework is compiled for Java 17, so
 * {@code Thread.ofVirtual()} and {@code Executors.newThreadPerTaskExecutor} are called reflectively, once.
 */
public final class VirtualThreads {
    private static final Method OF_VIRTUAL = method(Thread.class, "ofVirtual");

    private VirtualThreads() {
    }

    /** Whether this JVM can run virtual threads. */
    public static boolean available() {
        return OF_VIRTUAL != null;
    }

    /** An executor that starts a virtual thread named {@code prefix + n} per task; JDK 21+ only. */
    public static ExecutorService perTaskExecutor(String prefix) {
        if (!available()) {
            throw new IllegalStateException("virtual threads need JDK 21 or later; this JVM is "
                    + Runtime.version());
        }
        try {
            Object builder = OF_VIRTUAL.invoke(null);
            Class<?> builderType = Class.forName("java.lang.Thread$Builder");
            builder = builderType.getMethod("name", String.class, long.class).invoke(builder, prefix, 0L);
            ThreadFactory factory = (ThreadFactory) builderType.getMethod("factory").invoke(builder);
            return (ExecutorService) java.util.concurrent.Executors.class
                    .getMethod("newThreadPerTaskExecutor", ThreadFactory.class).invoke(null, factory);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot create virtual threads on " + Runtime.version(), e);
        }
    }

    private static Method method(Class<?> type, String name) {
        try {
            return type.getMethod(name);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }
}
