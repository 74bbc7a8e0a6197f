package io.kestrel.rpc.spring.schema;

import io.kestrel.rpc.api.generic.GenericService;
import io.kestrel.rpc.spring.ApplicationConfigBean;
import io.kestrel.rpc.spring.KestrelRpcBeans;
import io.kestrel.rpc.spring.ProtocolConfigBean;
import io.kestrel.rpc.spring.ReferenceBean;
import io.kestrel.rpc.spring.RegistryConfigBean;
import io.kestrel.rpc.spring.ServiceBean;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.FactoryBean;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.RuntimeBeanReference;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.beans.factory.xml.BeanDefinitionParser;
import org.springframework.beans.factory.xml.ParserContext;
import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;
import org.w3c.dom.Attr;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;

/**
 * Turns one element of the namespace into a bean definition. The element's attributes are kept as text
 * (so {@code ${...}} placeholders work) and converted by the bean when it is initialised; only the
 * {@code interface} class is resolved here, because the bean's type depends on it, and a missing class
 * fails the parse with the element, the attribute and the XML resource named.
 */
final class RpcElementParser implements BeanDefinitionParser {
    /** The elements and the bean class each one becomes. */
    enum Kind {
        APPLICATION("application", ApplicationConfigBean.class),
        REGISTRY("registry", RegistryConfigBean.class),
        PROTOCOL("protocol", ProtocolConfigBean.class),
        CONSOLE("console", io.kestrel.rpc.spring.ConsoleConfigBean.class),
        SERVICE("service", ServiceBean.class),
        REFERENCE("reference", ReferenceBean.class);

        final String element;
        final Class<?> beanClass;

        Kind(String element, Class<?> beanClass) {
            this.element = element;
            this.beanClass = beanClass;
        }
    }

    /** The add-on that {@code <rpc:console>} attaches, in the optional artifact io.kestrel:rpc-console. */
    static final String CONSOLE_CLASS = "io.kestrel.rpc.console.KestrelConsole";

    private final Kind kind;

    RpcElementParser(Kind kind) {
        this.kind = kind;
    }

    @Override
    public BeanDefinition parse(Element element, ParserContext parserContext) {
        KestrelRpcBeans.registerInfrastructure(parserContext.getRegistry());
        String id = element.getAttribute("id").trim();
        String iface = element.getAttribute("interface").trim();
        String where = describe(element, id, iface, parserContext);
        if (kind == Kind.CONSOLE && !ClassUtils.isPresent(CONSOLE_CLASS, parserContext.getReaderContext().getBeanClassLoader())) {
            String enabled = element.getAttribute("enabled").trim();
            if (enabled.isEmpty() || enabled.equals("false")) {
                return null; // a console that is off needs no artifact
            }
            parserContext.getReaderContext().error(where + " enables the web console, but its artifact"
                    + " io.kestrel:rpc-console is not on the class path: add that dependency, or remove the element",
                    element);
        }

        Map<String, String> attributes = new LinkedHashMap<>();
        NamedNodeMap attrs = element.getAttributes();
        for (int i = 0; i < attrs.getLength(); i++) {
            Attr a = (Attr) attrs.item(i);
            String name = a.getLocalName() != null ? a.getLocalName() : a.getName();
            if (a.getNamespaceURI() == null && !name.equals("id") && !name.equals("interface") && !name.equals("ref")) {
                attributes.put(name, a.getValue());
            }
        }

        RootBeanDefinition bd = new RootBeanDefinition(kind.beanClass);
        bd.setSource(parserContext.extractSource(element));
        bd.getPropertyValues().add("source", where);
        bd.getPropertyValues().add("attributes", attributes);
        boolean generic = kind == Kind.REFERENCE && "true".equals(element.getAttribute("generic").trim());
        if (generic) {
            // the interface's class need not be on this side's class path: only its name travels
            if (iface.isEmpty()) {
                parserContext.getReaderContext().error(where + " attribute 'interface' is required: the fully"
                        + " qualified name of the service interface", element);
            }
            bd.getPropertyValues().add("genericInterface", iface);
            bd.getPropertyValues().add("interfaceClass", GenericService.class);
            bd.setAttribute(FactoryBean.OBJECT_TYPE_ATTRIBUTE, GenericService.class);
            bd.setTargetType(ResolvableType.forClassWithGenerics(ReferenceBean.class, GenericService.class));
        } else if (kind == Kind.SERVICE || kind == Kind.REFERENCE) {
            Class<?> type = resolveInterface(element, iface, where, parserContext);
            bd.getPropertyValues().add("interfaceClass", type);
            if (kind == Kind.REFERENCE) {
                bd.setAttribute(FactoryBean.OBJECT_TYPE_ATTRIBUTE, type);
                bd.setTargetType(ResolvableType.forClassWithGenerics(ReferenceBean.class, type));
            } else {
                String ref = element.getAttribute("ref").trim();
                if (ref.isEmpty()) {
                    parserContext.getReaderContext().error(where + " attribute 'ref' is required: the name of the bean"
                            + " implementing " + type.getName(), element);
                }
                bd.getPropertyValues().add("ref", new RuntimeBeanReference(ref));
            }
        }
        String name = !id.isEmpty() ? id : parserContext.getReaderContext().generateBeanName(bd);
        parserContext.getRegistry().registerBeanDefinition(name, bd);
        return bd;
    }

    private Class<?> resolveInterface(Element element, String iface, String where, ParserContext ctx) {
        if (iface.isEmpty()) {
            ctx.getReaderContext().error(where + " attribute 'interface' is required: the fully qualified name of the"
                    + " service interface", element);
        }
        try {
            Class<?> type = ClassUtils.forName(iface, ctx.getReaderContext().getBeanClassLoader());
            if (!type.isInterface()) {
                ctx.getReaderContext().error(where + " attribute 'interface' = \"" + iface + "\": " + type.getName()
                        + " is a class; name the interface it implements", element);
            }
            return type;
        } catch (ClassNotFoundException | LinkageError e) {
            ctx.getReaderContext().error(where + " attribute 'interface' = \"" + iface + "\": no such class on the"
                    + " classpath (" + e + "); check the spelling and that the jar with the API is a dependency",
                    element, e);
            throw new AssertionError("unreachable: error() throws", e);
        }
    }

    private String describe(Element element, String id, String iface, ParserContext ctx) {
        StringBuilder sb = new StringBuilder("<rpc:").append(kind.element);
        if (!id.isEmpty()) {
            sb.append(" id=\"").append(id).append('"');
        }
        if (!iface.isEmpty()) {
            sb.append(" interface=\"").append(iface).append('"');
        }
        sb.append('>');
        if (ctx.getReaderContext().getResource() != null) {
            sb.append(" in ").append(ctx.getReaderContext().getResource().getDescription());
        }
        return sb.toString();
    }
}
