package io.kestrel.rpc.serialization.forbidden;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/** Where {@link Forbidden} records being initialized or instantiated; a separate class so reading it does not initialize Forbidden. */
public final class ForbiddenProbe {
    public static final String FORBIDDEN_CLASS = "io.kestrel.rpc.serialization.forbidden.Forbidden";
    public static final AtomicBoolean INITIALIZED = new AtomicBoolean();
    public static final AtomicInteger INSTANCES = new AtomicInteger();

    private ForbiddenProbe() {
    }
}
