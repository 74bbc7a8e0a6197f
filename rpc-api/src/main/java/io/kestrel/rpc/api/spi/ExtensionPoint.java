package io.kestrel.rpc.api.spi;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * One extension interface (an SPI such as {@code Serialization}, {@code RegistryFactory} or
 * {@code LoadBalance}) and where its implementations come from: {@link ServiceLoader}, reading
 * {@code META-INF/services/<interface name>}. Each implementation has a short name (its
 * {@code name()} or {@code scheme()}), unique among those found.
 *
 * <p><b>Class-loader policy</b> (the only one in the framework): implementations are loaded with the
 * calling thread's context class loader when it is set and sees this very SPI interface, otherwise with
 * the loader of the SPI interface itself; the result is loaded once per such loader and cached.
 * So an application server or a fat jar that sets the context loader sees its own plug-ins, and a
 * context loader that does not know Kestrel (or none) does not break lookup.
 *
 * <p>Keep one instance per SPI in a constant; {@link #installed()} is cheap after the first call
 * from a loader (a context-loader read and a map lookup). Thread-safe.
 *
 * <pre>{@code
 * static final ExtensionPoint<LoadBalance> LOAD_BALANCERS = ExtensionPoint.of(LoadBalance.class,
 *         "load balancer", LoadBalance::name, "Check the reference's loadbalance setting.");
 * LoadBalance lb = LOAD_BALANCERS.installed().create("roundrobin");
 * }</pre>
 *
 * @param <S> the extension interface
 */
public final class ExtensionPoint<S> {
    private final Class<S> spi;
    private final String kind;
    private final Function<? super S, String> nameOf;
    private final String hint;
    private final Function<? super S, String> listedAs;
    private final Map<ClassLoader, Extensions<S>> byContextLoader = new ConcurrentHashMap<>();
    private volatile Extensions<S> own;

    private ExtensionPoint(Class<S> spi, String kind, Function<? super S, String> nameOf, String hint,
            Function<? super S, String> listedAs) {
        this.spi = spi;
        this.kind = kind;
        this.nameOf = nameOf;
        this.hint = hint;
        this.listedAs = listedAs;
    }

    /**
     * @param spi the extension interface
     * @param kind what one implementation is called in messages, e.g. "load balancer"
     * @param nameOf the short name of an implementation, e.g. {@code LoadBalance::name}; compared
     *     case-insensitively after trimming
     * @param hint appended to the message for an unknown name (what to check or add); may be empty
     */
    public static <S> ExtensionPoint<S> of(Class<S> spi, String kind, Function<? super S, String> nameOf, String hint) {
        return new ExtensionPoint<>(Objects.requireNonNull(spi, "spi"), Objects.requireNonNull(kind, "kind"),
                Objects.requireNonNull(nameOf, "nameOf"), hint == null ? "" : hint.trim(), null);
    }

    /**
     * The same extension point, listing the known implementations in the unknown-name message with
     * {@code label} (e.g. {@code "kryo=8"}, name and wire id) instead of the bare name.
     */
    public ExtensionPoint<S> listedAs(Function<? super S, String> label) {
        return new ExtensionPoint<>(spi, kind, nameOf, hint, Objects.requireNonNull(label, "label"));
    }

    /** The extension interface. */
    public Class<S> spi() {
        return spi;
    }

    /**
     * The implementations visible from the calling thread under the class-loader policy (see the class
     * comment), loaded on the first call for that loader.
     *
     * @throws IllegalStateException if two implementations share a name, or one cannot be loaded or
     *     instantiated; the message names the classes, their jars and the services file
     */
    public Extensions<S> installed() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        if (context == null || context == spi.getClassLoader()) {
            return ownLoaderExtensions();
        }
        Extensions<S> found = byContextLoader.get(context);
        if (found == null) {
            // loaded outside the map's lock: a plug-in's constructor may itself look up extensions
            found = seesSpi(context) ? load(context) : ownLoaderExtensions();
            Extensions<S> raced = byContextLoader.putIfAbsent(context, found);
            if (raced != null) {
                found = raced;
            }
        }
        return found;
    }

    private Extensions<S> ownLoaderExtensions() {
        Extensions<S> e = own;
        if (e == null) {
            synchronized (this) {
                e = own;
                if (e == null) {
                    e = load(spi.getClassLoader());
                    own = e;
                }
            }
        }
        return e;
    }

    /** Whether {@code loader} resolves the SPI's name to this same interface (not another copy, not nothing). */
    private boolean seesSpi(ClassLoader loader) {
        try {
            return Class.forName(spi.getName(), false, loader) == spi;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private Extensions<S> load(ClassLoader loader) {
        return new Extensions<>(this, loader, ServiceLoader.load(spi, loader));
    }

    String kind() {
        return kind;
    }

    String hint() {
        return hint;
    }

    /** How an implementation is shown among the known ones: its label, or its name. */
    String listed(S extension) {
        return listedAs != null ? listedAs.apply(extension) : nameOf(extension);
    }

    String nameOf(S extension) {
        return normalize(nameOf.apply(extension));
    }

    static String normalize(String name) {
        return name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return "ExtensionPoint{" + spi.getName() + "}";
    }
}
