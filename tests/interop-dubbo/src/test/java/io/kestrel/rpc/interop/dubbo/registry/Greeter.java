package io.kestrel.rpc.interop.dubbo.registry;

/** The service of the registry interop tests. */
public interface Greeter {
    String greet(String name);
}
