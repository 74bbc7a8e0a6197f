package io.kestrel.rpc.interop.dubbo;

import java.lang.reflect.Field;
import java.net.InetAddress;
import org.apache.dubbo.common.utils.NetUtils;

/**
 * Keeps stock Dubbo on the loopback interface in these tests. Dubbo treats every 127.x address as "no address":
 * its clients dial {@link NetUtils#getLocalHost()} instead (NetUtils.filterLocalHost) and its providers register
 * it, which is this machine's first non-loopback interface. The tests talk to 127.0.0.1 only, so that address is
 * pinned to loopback here, once, before a test starts any Dubbo code that reads it.
 */
public final class Loopback {
    /** The address every test binds, dials and registers. */
    public static final String HOST = pin();

    private Loopback() {
    }

    private static String pin() {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try {
            set("LOCAL_ADDRESS", loopback);
            set("HOST_ADDRESS", loopback.getHostAddress());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot pin Dubbo's NetUtils to loopback (did its fields change in a new"
                    + " Dubbo version?): " + e, e);
        }
        if (!loopback.getHostAddress().equals(NetUtils.getLocalHost())) {
            throw new IllegalStateException("Dubbo's NetUtils.getLocalHost() is still " + NetUtils.getLocalHost());
        }
        return loopback.getHostAddress();
    }

    private static void set(String field, Object value) throws ReflectiveOperationException {
        Field f = NetUtils.class.getDeclaredField(field);
        f.setAccessible(true);
        f.set(null, value);
    }
}
