package io.kestrel.rpc.registry.zookeeper;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.registry.ConsumerInfo;
import io.kestrel.rpc.api.registry.ProviderInfo;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.apache.curator.utils.ZKPaths;

/**
 * The znode layout, in one place:
 * {@code <root>/<interface>[/<group>:<version>]/providers/<URL-encoded ProviderInfo.toUrl()>} and, beside it,
 * {@code <root>/<interface>[/<group>:<version>]/consumers/<URL-encoded ConsumerInfo.toUrl()>}.
 * The middle segment is left out when both group and version are empty.
 */
final class ZooKeeperPaths {
    static final String PROVIDERS = "providers";
    static final String CONSUMERS = "consumers";

    private ZooKeeperPaths() {
    }

    static String servicePath(String root, ServiceKey service) {
        String path = ZKPaths.makePath(root, encode(service.interfaceName()));
        if (!service.group().isEmpty() || !service.version().isEmpty()) {
            path = ZKPaths.makePath(path, encode(service.group()) + ":" + encode(service.version()));
        }
        return path;
    }

    static String providersPath(String root, ServiceKey service) {
        return ZKPaths.makePath(servicePath(root, service), PROVIDERS);
    }

    static String providerPath(String root, ProviderInfo provider) {
        return ZKPaths.makePath(providersPath(root, provider.service()), encode(provider.toUrl()));
    }

    static String consumersPath(String root, ServiceKey service) {
        return ZKPaths.makePath(servicePath(root, service), CONSUMERS);
    }

    static String consumerPath(String root, ConsumerInfo consumer) {
        return ZKPaths.makePath(consumersPath(root, consumer.service()), encode(consumer.toUrl()));
    }

    /**
     * Parses a child node name of a consumers folder.
     *
     * @throws IllegalArgumentException if the name is not an encoded consumer record
     */
    static ConsumerInfo parseConsumerNode(String nodeName) {
        return ConsumerInfo.fromUrl(URLDecoder.decode(nodeName, StandardCharsets.UTF_8));
    }

    /**
     * Parses a child node name of a providers folder.
     *
     * @throws IllegalArgumentException if the name is not an encoded provider record
     */
    static ProviderInfo parseProviderNode(String nodeName) {
        return ProviderInfo.fromUrl(URLDecoder.decode(nodeName, StandardCharsets.UTF_8));
    }

    // ---- Apache Dubbo's layout: <dubbo-root>/<interface>/providers|consumers/<URL-encoded dubbo URL> ----

    /** Dubbo's folder of the providers of an interface, whatever their version and group. */
    static String dubboProvidersPath(String dubboRoot, String interfaceName) {
        return ZKPaths.makePath(ZKPaths.makePath(dubboRoot, encode(interfaceName)), PROVIDERS);
    }

    static String dubboConsumersPath(String dubboRoot, String interfaceName) {
        return ZKPaths.makePath(ZKPaths.makePath(dubboRoot, encode(interfaceName)), CONSUMERS);
    }

    /**
     * Where a provider record goes: the native layout under {@code root}, or Dubbo's under {@code dubboRoot} for a
     * provider on the {@code dubbo} protocol.
     *
     * @throws IllegalArgumentException for a protocol this registry cannot publish
     */
    static String providerPath(String root, String dubboRoot, ProviderInfo provider) {
        return switch (provider.protocol()) {
            case ProviderInfo.NATIVE_PROTOCOL -> providerPath(root, provider);
            case DubboUrls.SCHEME -> ZKPaths.makePath(dubboProvidersPath(dubboRoot, provider.service().interfaceName()),
                    encode(DubboUrls.providerUrl(provider)));
            default -> throw unknownProtocol(provider.protocol(), provider.toString());
        };
    }

    /** The node data of a provider record: the unencoded record. */
    static String providerData(ProviderInfo provider) {
        return DubboUrls.SCHEME.equals(provider.protocol()) ? DubboUrls.providerUrl(provider) : provider.toUrl();
    }

    /** Like {@link #providerPath(String, String, ProviderInfo)}, for a consumer (attribute "protocol"). */
    static String consumerPath(String root, String dubboRoot, ConsumerInfo consumer) {
        String protocol = consumer.attribute(ProviderInfo.PROTOCOL).orElse(ProviderInfo.NATIVE_PROTOCOL);
        return switch (protocol) {
            case ProviderInfo.NATIVE_PROTOCOL -> consumerPath(root, consumer);
            case DubboUrls.SCHEME -> ZKPaths.makePath(dubboConsumersPath(dubboRoot, consumer.service().interfaceName()),
                    encode(DubboUrls.consumerUrl(consumer)));
            default -> throw unknownProtocol(protocol, consumer.toString());
        };
    }

    /** The node data of a consumer record: the unencoded record. */
    static String consumerData(ConsumerInfo consumer) {
        return consumer.attribute(ProviderInfo.PROTOCOL).filter(DubboUrls.SCHEME::equals).isPresent()
                ? DubboUrls.consumerUrl(consumer) : consumer.toUrl();
    }

    private static IllegalArgumentException unknownProtocol(String protocol, String record) {
        return new IllegalArgumentException("The ZooKeeper registry cannot publish " + record + ": protocol '" + protocol
                + "' is neither " + ProviderInfo.NATIVE_PROTOCOL + " nor " + DubboUrls.SCHEME);
    }

    static String interfacePath(String root, String interfaceName) {
        return ZKPaths.makePath(root, encode(interfaceName));
    }

    /**
     * The service key of a child of an interface node: "providers" is the key without group and
     * version, "group:version" (each URL-encoded) the others; null for anything else.
     */
    static ServiceKey keyOfChild(String interfaceName, String child) {
        if (child.equals(PROVIDERS)) {
            return new ServiceKey(interfaceName, "", "");
        }
        int colon = child.indexOf(':');
        if (colon < 0) {
            return null;
        }
        return new ServiceKey(interfaceName, URLDecoder.decode(child.substring(colon + 1), StandardCharsets.UTF_8),
                URLDecoder.decode(child.substring(0, colon), StandardCharsets.UTF_8));
    }

    static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
