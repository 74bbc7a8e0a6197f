package io.kestrel.rpc.interop.dubbo;

/**
 * A stand-in for a deserialization gadget: initialising it sets a system property, so a test can tell whether a
 * hostile frame got it loaded and initialised. Only ever named as text by tests, never referenced.
 */
final class Fastjson2Gadget {
    static final String LOADED = "kestrel.test.fastjson2-gadget-initialised";

    static {
        System.setProperty(LOADED, "true");
    }

    private String command;

    private Fastjson2Gadget() {
    }
}
