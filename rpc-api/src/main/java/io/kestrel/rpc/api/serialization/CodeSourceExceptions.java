package io.kestrel.rpc.api.serialization;

import java.net.URL;
import java.security.CodeSource;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Apache Dubbo's rule for exceptions, for {@link ClassAllowlist}: an exception class that comes from
 * the same code source (jar or class directory) as a trusted service interface is part of that
 * service's API, so consumers may read it as itself although no signature names it.
 *
 * <p>A name from the wire is judged without defining classes it does not concern: the interface's
 * class loader is asked for the class file as a resource first, and only a class file inside the
 * interface's own code source is loaded (never initialized) to check that it is a {@link Throwable}.
 * Decisions are cached only for names found inside a trusted code source, which bounds the cache by
 * the size of those jars. Thread-safe.
 */
final class CodeSourceExceptions {
    /** One trusted code source: where the interface was loaded from, and by which loader. */
    private record Source(String location, ClassLoader loader) {
    }

    private final List<Source> sources = new CopyOnWriteArrayList<>();
    private final Map<String, Boolean> decided = new ConcurrentHashMap<>();
    private final Set<String> locations = ConcurrentHashMap.newKeySet();

    /** Trusts the exceptions of the code source {@code serviceInterface} comes from, if it has one. */
    void trust(Class<?> serviceInterface) {
        String location = locationOf(serviceInterface);
        if (location != null && serviceInterface.getClassLoader() != null && locations.add(location)) {
            sources.add(new Source(location, serviceInterface.getClassLoader()));
        }
    }

    /** The class of this name if it is a Throwable from a trusted code source, else null. */
    Class<?> find(String className) {
        Boolean known = decided.get(className);
        if (Boolean.FALSE.equals(known)) {
            return null;
        }
        String resource = className.replace('.', '/') + ".class";
        for (Source s : sources) {
            URL url = s.loader().getResource(resource);
            if (url == null || !inside(url.toString(), s.location())) {
                continue;
            }
            try {
                Class<?> c = Class.forName(className, false, s.loader());
                boolean ok = Throwable.class.isAssignableFrom(c) && s.location().equals(locationOf(c));
                decided.put(className, ok); // bounded: only names of class files inside a trusted source
                if (ok) {
                    return c;
                }
            } catch (ClassNotFoundException | LinkageError e) {
                decided.put(className, false);
            }
        }
        return null;
    }

    private static boolean inside(String resource, String location) {
        return resource.startsWith(location) || resource.startsWith("jar:" + location + "!/")
                || !location.startsWith("file:"); // other schemes (nested jars): the code source check decides
    }

    private static String locationOf(Class<?> c) {
        try {
            CodeSource cs = c.getProtectionDomain().getCodeSource();
            return cs == null || cs.getLocation() == null ? null : cs.getLocation().toString();
        } catch (SecurityException e) {
            return null;
        }
    }
}
