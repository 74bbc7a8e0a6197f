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

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
