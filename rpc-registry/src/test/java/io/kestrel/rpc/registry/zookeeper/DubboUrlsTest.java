package io.kestrel.rpc.registry.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.registry.ConsumerInfo;
import io.kestrel.rpc.api.registry.ProviderInfo;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Dubbo's provider and consumer URLs, written and read, with the edge cases of real registries. */
class DubboUrlsTest {
    private static final String IFACE = "org.example.Greeter";
    private static final ServiceKey PLAIN = new ServiceKey(IFACE, "", "");

    /** What a stock Dubbo 3.3 provider writes (interface-level registration), node name as found in ZooKeeper. */
    static String stockNode(String host, int port, String extra) {
        // as Dubbo 3.3.6 wrote it (register-mode=interface), plus pid and service-name-mapping from older releases
        String url = "dubbo://" + host + ":" + port + "/" + IFACE + "?application=dubbo-provider&deprecated=false"
                + "&dubbo=2.0.2&dynamic=true&generic=false&interface=" + IFACE + "&methods=greet,greetAsync&pid=4242"
                + "&prefer.serialization=hessian2,fastjson2&release=3.3.6&revision=1.0&service-name-mapping=true"
                + "&side=provider&timestamp=1795000000000" + extra;
        return URLEncoder.encode(url, StandardCharsets.UTF_8);
    }

    @Test
    void aStockDubboProviderReadsAsAProviderOnTheDubboProtocol() {
        ProviderInfo p = DubboUrls.parseProvider(stockNode("10.0.0.5", 20880, "&timeout=700&weight=50"), PLAIN)
                .provider();
        assertEquals("10.0.0.5:20880", p.address());
        assertEquals(PLAIN, p.service());
        assertEquals("dubbo", p.protocol());
        assertEquals(List.of("greet", "greetAsync"), p.methods());
        assertEquals(50, p.weight());
        assertEquals(Optional.of(Duration.ofMillis(700)), p.timeout());
        assertEquals(List.of((byte) 2, (byte) 6), p.serializationIds(), "hessian2 then fastjson2, Kestrel's ids");
        assertEquals(Optional.of("hessian2"), p.attribute(ProviderInfo.PREFERRED_SERIALIZATION));
        assertEquals(Optional.of("dubbo-provider"), p.attribute(ProviderInfo.APPLICATION));
        assertEquals(Optional.of("4242"), p.attribute(ProviderInfo.PID));
        assertEquals(Optional.empty(), p.attribute("service-name-mapping"), "Dubbo's other parameters are left out");
        assertEquals(Optional.empty(), p.attribute(ProviderInfo.WARMUP), "no warmup parameter: no ramp");
    }

    @Test
    void aProviderWithoutSerializationOrWeightGetsDubbosDefaults() {
        String url = "dubbo://127.0.0.1:20880/" + IFACE + "?interface=" + IFACE + "&methods=greet";
        ProviderInfo p = DubboUrls.parseProvider(URLEncoder.encode(url, StandardCharsets.UTF_8), PLAIN).provider();
        assertEquals(100, p.weight());
        assertEquals(List.of((byte) 2), p.serializationIds(), "hessian2, Dubbo's default");
        assertEquals(Optional.empty(), p.timeout());
    }

    @Test
    void theInterfaceComesFromThePathWhenTheParameterIsMissing() {
        String url = "dubbo://127.0.0.1:20880/" + IFACE + "?methods=greet";
        assertEquals(PLAIN, DubboUrls.parseProvider(URLEncoder.encode(url, StandardCharsets.UTF_8), PLAIN)
                .provider().service());
    }

    @Test
    void versionAndGroupFilterAsInDubbo() {
        String node = stockNode("127.0.0.1", 20880, "&version=1.0.0&group=blue");
        assertTrue(match(node, "1.0.0", "blue"));
        assertTrue(match(node, "*", "blue"), "version * matches any");
        assertTrue(match(node, "1.0.0", "*"), "group * matches any");
        assertTrue(match(node, "1.0.0", "red,blue"), "a list of groups matches each");
        assertFalse(match(node, "1.0.1", "blue"));
        assertFalse(match(node, "1.0.0", ""), "no group on the reference is not 'any group'");
        assertFalse(match(node, "", "blue"));
        assertFalse(match(stockNode("127.0.0.1", 20880, ""), "", "red,blue"), "an empty group is in no list");
        assertTrue(match(stockNode("127.0.0.1", 20880, ""), "", ""));
    }

    private static boolean match(String node, String version, String group) {
        DubboUrls.Parsed parsed = DubboUrls.parseProvider(node, new ServiceKey(IFACE, version, group));
        return parsed.provider() != null;
    }

    @Test
    void disabledProvidersOtherProtocolsAndCategoriesAreSkippedWithTheReason() {
        assertEquals("disabled", DubboUrls.parseProvider(stockNode("h", 1, "&enabled=false"), PLAIN).skipped());
        assertEquals("disabled", DubboUrls.parseProvider(stockNode("h", 1, "&disabled=true"), PLAIN).skipped());
        assertNull(DubboUrls.parseProvider(stockNode("h", 1, "&enabled=true"), PLAIN).skipped());
        String tri = URLEncoder.encode("tri://127.0.0.1:50051/" + IFACE + "?interface=" + IFACE,
                StandardCharsets.UTF_8);
        assertTrue(DubboUrls.parseProvider(tri, PLAIN).skipped().startsWith("protocol tri"));
        assertEquals("category configurators",
                DubboUrls.parseProvider(stockNode("h", 1, "&category=configurators"), PLAIN).skipped());
        String other = URLEncoder.encode("dubbo://127.0.0.1:1/org.example.Other?interface=org.example.Other",
                StandardCharsets.UTF_8);
        assertEquals("a provider of org.example.Other", DubboUrls.parseProvider(other, PLAIN).skipped());
    }

    @Test
    void malformedRecordsFailNamingTheTextAndWhatIsWrong() {
        IllegalArgumentException noScheme = assertThrows(IllegalArgumentException.class,
                () -> DubboUrls.parseProvider("just-a-node", PLAIN));
        assertTrue(noScheme.getMessage().contains("'just-a-node' is not a URL"), noScheme.getMessage());
        IllegalArgumentException port = assertThrows(IllegalArgumentException.class,
                () -> DubboUrls.parseProvider(URLEncoder.encode("dubbo://h:x/" + IFACE, StandardCharsets.UTF_8),
                        PLAIN));
        assertTrue(port.getMessage().contains("has port 'x'"), port.getMessage());
        IllegalArgumentException weight = assertThrows(IllegalArgumentException.class,
                () -> DubboUrls.parseProvider(stockNode("h", 1, "&weight=-3"), PLAIN));
        assertTrue(weight.getMessage().contains("has weight '-3'"), weight.getMessage());
        IllegalArgumentException zeroPort = assertThrows(IllegalArgumentException.class,
                () -> DubboUrls.parseProvider(stockNode("h", 0, ""), PLAIN));
        assertTrue(zeroPort.getMessage().contains("port must be 1..65535"), zeroPort.getMessage());
    }

    @Test
    void ipv6HostsKeepTheirColons() {
        ProviderInfo p = DubboUrls.parseProvider(stockNode("[::1]", 20880, ""), PLAIN).provider();
        assertEquals("[::1]", p.host());
        assertEquals(20880, p.port());
    }

    @Test
    void ourProviderIsWrittenWithTheParametersADubboConsumerReads() {
        ProviderInfo p = new ProviderInfo("10.0.0.7", 20881, new ServiceKey(IFACE, "1.0", "blue"),
                List.of((byte) 2, (byte) 6), 80, List.of("greet", "age"), Duration.ofMillis(1500))
                .withAttributes(Map.of(ProviderInfo.PROTOCOL, "dubbo", ProviderInfo.APPLICATION, "shop",
                        ProviderInfo.PID, "77", ProviderInfo.START_TIME, "1795000000123",
                        ProviderInfo.PREFERRED_SERIALIZATION, "hessian2", ProviderInfo.FRAMEWORK_VERSION, "0.1.0"));
        assertEquals("dubbo://10.0.0.7:20881/" + IFACE + "?application=shop&deprecated=false"
                + "&dubbo=2.0.2&dynamic=true&generic=false&group=blue&interface=" + IFACE + "&kestrel-version=0.1.0"
                + "&methods=age,greet&pid=77&prefer.serialization=hessian2,fastjson2&serialization=hessian2"
                + "&side=provider&timeout=1500&timestamp=1795000000123&version=1.0&warmup=0&weight=80",
                DubboUrls.providerUrl(p));
        ProviderInfo back = DubboUrls.parseProvider(URLEncoder.encode(DubboUrls.providerUrl(p), StandardCharsets.UTF_8),
                p.service()).provider();
        assertEquals(p.address(), back.address());
        assertEquals(p.service(), back.service());
        assertEquals(p.weight(), back.weight());
        assertEquals(p.timeout(), back.timeout());
        assertEquals(List.of("age", "greet"), back.methods());
        assertEquals(p.serializationIds(), back.serializationIds());
    }

    @Test
    void aWarmupIsPublishedWithTheStartItCountsFromAndReadBack() {
        ProviderInfo p = new ProviderInfo("10.0.0.7", 20881, PLAIN, List.of((byte) 2), 100, List.of("greet"))
                .withAttributes(Map.of(ProviderInfo.PROTOCOL, "dubbo", ProviderInfo.WARMUP, "120000",
                        ProviderInfo.START_TIME, "1795000000123"));
        String url = DubboUrls.providerUrl(p);
        assertTrue(url.contains("&warmup=120000&"), url);
        assertFalse(url.contains("version="), "no version or group when the service has none: " + url);
        ProviderInfo back = DubboUrls.parseProvider(URLEncoder.encode(url, StandardCharsets.UTF_8), PLAIN).provider();
        assertEquals(Optional.of("120000"), back.attribute(ProviderInfo.WARMUP));
        assertEquals(Optional.of("1795000000123"), back.attribute(ProviderInfo.START_TIME));
    }

    @Test
    void aValueThatWouldSplitTheRecordIsEncodedAndTheRecordStillParses() {
        ProviderInfo p = new ProviderInfo("10.0.0.7", 20881, PLAIN, List.of((byte) 2), 100, List.of("greet"))
                .withAttributes(Map.of(ProviderInfo.PROTOCOL, "dubbo", ProviderInfo.APPLICATION, "a&b=c 100%"));
        String url = DubboUrls.providerUrl(p);
        assertTrue(url.contains("application=a%26b%3Dc+100%25&"), url);
        String node = URLEncoder.encode(url, StandardCharsets.UTF_8);
        assertEquals(url, URLDecoder.decode(node, StandardCharsets.UTF_8), "encoded once as a whole, as Dubbo does");
        ProviderInfo back = DubboUrls.parseProvider(node, PLAIN).provider();
        assertEquals(List.of("greet"), back.methods(), "the parameters after it are intact");
        assertEquals("10.0.0.7:20881", back.address());
    }

    @Test
    void ourConsumerRecordLooksLikeADubboConsumers() {
        ConsumerInfo c = new ConsumerInfo("10.0.0.9", new ServiceKey(IFACE, "1.0", ""),
                Map.of(ProviderInfo.PROTOCOL, "dubbo", ProviderInfo.APPLICATION, "shop", ProviderInfo.PID, "5",
                        ProviderInfo.START_TIME, "1795000000000"));
        assertEquals("consumer://10.0.0.9/" + IFACE + "?application=shop&category=consumers&check=false"
                + "&dubbo=2.0.2&interface=" + IFACE + "&pid=5&side=consumer&timestamp=1795000000000&version=1.0",
                DubboUrls.consumerUrl(c));
    }
}
