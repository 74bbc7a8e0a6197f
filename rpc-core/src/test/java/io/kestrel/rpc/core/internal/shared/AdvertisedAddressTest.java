package io.kestrel.rpc.core.internal.shared;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The address choice on this machine's real network interfaces. Tests never talk to another host: a registry is
 * "remote" here only as an argument of the pure function.
 */
class AdvertisedAddressTest {
    private static final boolean LOCAL = true;
    private static final boolean REMOTE = false;
    private static List<NetworkInterface> interfaces;
    private static InetAddress loopbackName;
    /** The first up, non-loopback, non-virtual interface's IPv4 address, by index, or null on a bare machine. */
    private static String firstInterfaceAddress;

    @BeforeAll
    static void readInterfaces() throws Exception {
        interfaces = Collections.list(NetworkInterface.getNetworkInterfaces());
        loopbackName = InetAddress.getByName("127.0.0.1");
        firstInterfaceAddress = interfaces.stream()
                .sorted(java.util.Comparator.comparingInt(NetworkInterface::getIndex))
                .filter(AdvertisedAddressTest::upAndReal)
                .flatMap(ni -> Collections.list(ni.getInetAddresses()).stream())
                .filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress())
                .map(InetAddress::getHostAddress).findFirst().orElse(null);
    }

    private static boolean upAndReal(NetworkInterface ni) {
        try {
            return ni.isUp() && !ni.isLoopback() && !ni.isVirtual();
        } catch (java.net.SocketException e) {
            return false;
        }
    }

    private static List<NetworkInterface> loopbackOnly() {
        return interfaces.stream().filter(ni -> {
            try {
                return ni.isLoopback();
            } catch (java.net.SocketException e) {
                return false;
            }
        }).toList();
    }

    private static ProtocolConfig.Builder protocol() {
        return ProtocolConfig.builder().port(0);
    }

    @Test
    void noHostWithALocalRegistryBindsAndPublishesLoopbackAsTheDemoDoes() {
        AdvertisedAddress a = AdvertisedAddress.choose(protocol().build(), null, LOCAL, loopbackName, interfaces);
        assertEquals("127.0.0.1", a.bind());
        assertEquals("127.0.0.1", a.advertised());
    }

    @Test
    void noHostWithARemoteRegistryBindsAllInterfacesAndPublishesOneOfThisMachinesRealAddresses() throws Exception {
        AdvertisedAddress a = AdvertisedAddress.choose(protocol().build(), null, REMOTE, InetAddress.getLocalHost(),
                interfaces);
        assertEquals("0.0.0.0", a.bind());
        if (a.advertised() == null) {
            assertNull(firstInterfaceAddress, "an interface address existed but none was chosen: " + a);
            return;
        }
        InetAddress chosen = InetAddress.getByName(a.advertised());
        assertFalse(chosen.isLoopbackAddress(), "published loopback to a remote registry: " + a);
        NetworkInterface owner = NetworkInterface.getByInetAddress(chosen);
        assertNotNull(owner, a.advertised() + " is not an address of this machine");
        assertTrue(owner.isUp(), owner + " is down");
    }

    @Test
    void aHostNameThatResolvesToLoopbackFallsBackToTheFirstRealInterfaceAsDubboDoes() {
        // the case measured across hosts: /etc/hosts maps the host name to 127.0.0.1
        AdvertisedAddress a = AdvertisedAddress.choose(protocol().build(), null, REMOTE, loopbackName, interfaces);
        assertEquals(firstInterfaceAddress, a.advertised(), "interfaces: " + interfaces);
        if (firstInterfaceAddress != null) {
            assertEquals("first network interface", a.source());
            assertFalse(a.advertisesLoopback());
        }
    }

    @Test
    void aHostNameWithARealAddressIsPreferredToTheInterfaces() throws Exception {
        InetAddress named = InetAddress.getByName("198.51.100.7");
        AdvertisedAddress a = AdvertisedAddress.choose(protocol().build(), null, REMOTE, named, interfaces);
        assertEquals("198.51.100.7", a.advertised());
        assertEquals("host name", a.source());
    }

    @Test
    void onlyLoopbackAndARemoteRegistryFindsNothingAndTheErrorSaysHowToSetIt() {
        AdvertisedAddress a = AdvertisedAddress.choose(protocol().build(), null, REMOTE, loopbackName, loopbackOnly());
        assertNull(a.advertised(), "must not fall back to loopback for a remote registry: " + a);
        String message = a.noAddressMessage(RegistryConfig.builder().address("zookeeper://zk.example:2181").build());
        assertTrue(message.contains("advertised-host"), message);
        assertTrue(message.contains(AdvertisedAddress.ENV), message);
        assertTrue(message.contains("zookeeper://zk.example:2181"), message);
    }

    @Test
    void onlyLoopbackAndALocalRegistryPublishesLoopback() {
        AdvertisedAddress a = AdvertisedAddress.choose(protocol().host("0.0.0.0").build(), null, LOCAL, loopbackName,
                loopbackOnly());
        assertEquals("0.0.0.0", a.bind());
        assertEquals("127.0.0.1", a.advertised());
    }

    @Test
    void wildcardHostWithARemoteRegistryPublishesTheMachineAddressNotTheWildcard() {
        AdvertisedAddress a = AdvertisedAddress.choose(protocol().host("0.0.0.0").build(), null, REMOTE,
                loopbackName, interfaces);
        assertEquals("0.0.0.0", a.bind());
        assertEquals(firstInterfaceAddress, a.advertised());
    }

    @Test
    void advertisedHostIsPublishedAsGivenAndBeatsTheEnvironment() {
        AdvertisedAddress a = AdvertisedAddress.choose(protocol().advertisedHost("10.1.2.3").build(), "10.9.9.9",
                REMOTE, loopbackName, loopbackOnly());
        assertEquals("10.1.2.3", a.advertised());
        assertEquals("advertised-host", a.source());
        assertEquals("0.0.0.0", a.bind(), "no host set: listen everywhere the advertised address may be");
    }

    @Test
    void theEnvironmentVariableNamesTheAddressWhenNothingElseDoes() {
        AdvertisedAddress a = AdvertisedAddress.choose(protocol().build(), " 10.9.9.9 ", REMOTE, loopbackName,
                interfaces);
        assertEquals("10.9.9.9", a.advertised());
        assertTrue(a.source().contains(AdvertisedAddress.ENV), a.source());
    }

    @Test
    void anAskedForAddressIsListenedOnEvenBesideALocalRegistry() {
        AdvertisedAddress a = AdvertisedAddress.choose(protocol().build(), "10.9.9.9", LOCAL, loopbackName, interfaces);
        assertEquals("0.0.0.0", a.bind(), "127.0.0.1 would not answer on 10.9.9.9");
        assertEquals("10.9.9.9", a.advertised());
        AdvertisedAddress loop = AdvertisedAddress.choose(protocol().advertisedHost("127.0.0.1").build(), null, LOCAL,
                loopbackName, interfaces);
        assertEquals("127.0.0.1", loop.bind());
        AdvertisedAddress pinned = AdvertisedAddress.choose(protocol().host("127.0.0.1").build(), "10.9.9.9", LOCAL,
                loopbackName, interfaces);
        assertEquals("127.0.0.1", pinned.bind(), "a host that is set is what is listened on");
    }

    @Test
    void anExplicitLoopbackHostIsAskedForAndFlaggedForTheWarning() {
        AdvertisedAddress a = AdvertisedAddress.choose(protocol().host("127.0.0.1").build(), null, REMOTE,
                loopbackName, interfaces);
        assertEquals("127.0.0.1", a.bind());
        assertEquals("127.0.0.1", a.advertised());
        assertTrue(a.advertisesLoopback());
        assertEquals("host", a.source());
    }

    @Test
    void aSpecificHostIsBothBoundAndPublished() {
        AdvertisedAddress a = AdvertisedAddress.choose(protocol().host("10.4.4.4").build(), null, REMOTE,
                loopbackName, interfaces);
        assertEquals("10.4.4.4", a.bind());
        assertEquals("10.4.4.4", a.advertised());
    }
}
