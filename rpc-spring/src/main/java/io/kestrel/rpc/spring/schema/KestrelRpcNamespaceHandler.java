package io.kestrel.rpc.spring.schema;

import org.springframework.beans.factory.xml.NamespaceHandlerSupport;

/**
 * Handler of the {@code http://kestrel.io/schema/rpc} namespace (listed in {@code META-INF/spring.handlers}):
 * {@code application}, {@code registry}, {@code protocol}, {@code console}, {@code service} and {@code reference}.
 */
public class KestrelRpcNamespaceHandler extends NamespaceHandlerSupport {
    /** The namespace URI. */
    public static final String NAMESPACE = "http://kestrel.io/schema/rpc";

    @Override
    public void init() {
        for (RpcElementParser.Kind kind : RpcElementParser.Kind.values()) {
            registerBeanDefinitionParser(kind.element, new RpcElementParser(kind));
        }
    }
}
