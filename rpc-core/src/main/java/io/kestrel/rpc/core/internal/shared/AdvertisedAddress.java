package io.kestrel.rpc.core.internal.shared;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which address a runtime binds and which it publishes in the registry (provider records and consumer records
 * alike). The rule, in order:
 * <ol>
 *   <li>{@code advertised-host} set on the protocol: published as given (asked for, loopback included);</li>
 *   <li>environment variable {@value #ENV} set: published as given (Dubbo's {@code DUBBO_IP_TO_REGISTRY});
 *       in both cases an unset {@code host} listens on all interfaces unless the address is a loopback one;</li>
 *   <li>{@code host} set to a specific address: that address, bound and published (a loopback one with a
 *       registry other hosts read is logged as a warning by the caller);</li>
 *   <li>otherwise ({@code host} unset or a wildcard): with a {@linkplain RegistryConfig#isLocal() local}
 *       registry (or none) an unset host binds and publishes 127.0.0.1, as the demo does; with a registry other
 *       hosts read it binds all interfaces and publishes this machine's address chosen as Dubbo does: the host
 *       name's address when it is not loopback, else the IPv4 address of the first interface (by index) that is
 *       up, not loopback and not virtual. When there is none, {@link #advertised()} is null and the caller
 *       refuses to publish loopback.</li>
 * </ol>
 * {@link #choose} is a pure function of its arguments; {@link #forThisMachine} feeds it the real ones and
 * {@link #forProvider} adds what a provider does with the result.
 *
 * @param bind the address to listen on
 * @param advertised the address to publish, or null when no reachable one was found
 * @param source how {@code advertised} was chosen, for logs and errors
 */
public record AdvertisedAddress(String bind, String advertised, String source) {
    /** Environment variable that names the address to publish, like Dubbo's {@code DUBBO_IP_TO_REGISTRY}. */
    public static final String ENV = "KESTREL_ADVERTISE_HOST";
    private static final Logger log = LoggerFactory.getLogger(AdvertisedAddress.class);
    private static final String LOOPBACK = "127.0.0.1";
    private static final String ANY = "0.0.0.0";

    /**
     * @param protocol the runtime's protocol (its {@code host}, {@code advertised-host} and whether they were set)
     * @param env the value of {@value #ENV}, or null
     * @param registryLocal whether only this host reads the registry (true also without a registry)
     * @param hostName this machine's host name resolved, or null when it does not resolve
     * @param interfaces this machine's network interfaces
     */
    public static AdvertisedAddress choose(ProtocolConfig protocol, String env, boolean registryLocal,
            InetAddress hostName, List<NetworkInterface> interfaces) {
        String bind = protocol.hostSet() ? protocol.host() : registryLocal ? LOOPBACK : ANY;
        String asked = protocol.advertisedHostSet() && !wildcard(protocol.advertisedHost()) ? protocol.advertisedHost()
                : env != null && !env.isBlank() && !wildcard(env.trim()) ? env.trim() : null;
        if (asked != null) {
            // with host unset, listen where the published address is, even beside a local registry
            String listen = protocol.hostSet() || RegistryConfig.isLoopbackName(asked) ? bind : ANY;
            return new AdvertisedAddress(listen, asked, protocol.advertisedHostSet() ? "advertised-host"
                    : "environment variable " + ENV);
        }
        if (!wildcard(bind)) {
            return new AdvertisedAddress(bind, bind, protocol.hostSet() ? "host" : "default host (local registry)");
        }
        String found = machineAddress(hostName, interfaces);
        if (found != null) {
            return new AdvertisedAddress(bind, found, hostName != null && found.equals(hostName.getHostAddress())
                    ? "host name" : "first network interface");
        }
        return registryLocal ? new AdvertisedAddress(bind, LOOPBACK, "loopback (local registry, no other address)")
                : new AdvertisedAddress(bind, null, "none found");
    }

    /** {@link #choose} with this process's environment, host name and interfaces. */
    public static AdvertisedAddress forThisMachine(ProtocolConfig protocol, RegistryConfig registry) {
        return choose(protocol, System.getenv(ENV), registry == null || registry.isLocal(), hostName(),
                interfaces());
    }

    /**
     * The address a provider's server listens on and publishes. With a registry other hosts read it logs the choice,
     * warns when it is loopback (asked for), and refuses to start when there is nothing reachable to publish.
     *
     * @param registry null in direct mode
     * @throws IllegalStateException when no reachable address exists; the message says how to set one
     */
    public static AdvertisedAddress forProvider(ProtocolConfig protocol, RegistryConfig registry) {
        AdvertisedAddress a = forThisMachine(protocol, registry);
        if (registry == null || registry.isLocal()) {
            return a;
        }
        if (a.advertised() == null) {
            throw new IllegalStateException("Cannot publish providers in " + registry.address() + ": "
                    + a.noAddressMessage(registry));
        }
        if (a.advertisesLoopback()) {
            log.warn("Publishing the loopback address {} (from {}) in {}, which other hosts read: consumers"
                    + " elsewhere cannot reach it, and a consumer that also runs this service calls its own copy."
                    + " Unset host, or set advertised-host (or {}) to an address they can reach",
                    a.advertised(), a.source(), registry.address(), ENV);
        } else {
            log.info("Listening on {} and publishing {} (from {}) in {}", a.bind(), a.advertised(), a.source(),
                    registry.address());
        }
        return a;
    }

    /** Whether the chosen address is a loopback one (the caller warns when the registry is not local). */
    public boolean advertisesLoopback() {
        return advertised != null && RegistryConfig.isLoopbackName(advertised);
    }

    /** Why nothing reachable could be published, and how to choose the address. */
    String noAddressMessage(RegistryConfig registry) {
        return "this machine has no address other hosts can reach: its host name resolves to loopback and no"
                + " network interface that is up, not loopback and not virtual has an IPv4 address, so the only"
                + " address to publish in " + registry.address() + " (read by other hosts) is 127.0.0.1, which"
                + " consumers elsewhere cannot call. Set the address to publish: advertised-host on the protocol"
                + " (<rpc:protocol advertised-host=\"..\"/>, rpc.protocol.advertised-host,"
                + " ProtocolConfig.Builder.advertisedHost) or the environment variable " + ENV
                + "; or set host=\"127.0.0.1\" to publish loopback deliberately";
    }

    /** Dubbo's choice: the host name's address if not loopback, else the first suitable interface's IPv4. */
    static String machineAddress(InetAddress hostName, List<NetworkInterface> interfaces) {
        if (hostName != null && usable(hostName)) {
            return hostName.getHostAddress();
        }
        List<NetworkInterface> sorted = interfaces.stream().sorted(Comparator.comparingInt(NetworkInterface::getIndex))
                .toList();
        for (NetworkInterface ni : sorted) {
            try {
                if (!ni.isUp() || ni.isLoopback() || ni.isVirtual()) {
                    continue;
                }
            } catch (SocketException e) {
                continue; // the interface went away meanwhile
            }
            for (InetAddress a : Collections.list(ni.getInetAddresses())) {
                if (usable(a)) {
                    return a.getHostAddress();
                }
            }
        }
        return null;
    }

    private static boolean usable(InetAddress a) {
        return a instanceof Inet4Address && !a.isLoopbackAddress() && !a.isAnyLocalAddress()
                && !a.isLinkLocalAddress();
    }

    private static boolean wildcard(String host) {
        return host.equals(ANY) || host.equals("::") || host.equals("0:0:0:0:0:0:0:0");
    }

    private static InetAddress hostName() {
        try {
            return InetAddress.getLocalHost(); // may ask DNS; callers cache the result
        } catch (UnknownHostException e) {
            return null;
        }
    }

    private static List<NetworkInterface> interfaces() {
        try {
            return Collections.list(NetworkInterface.getNetworkInterfaces());
        } catch (SocketException e) {
            return List.of();
        }
    }
}
