package io.kestrel.rpc.console;

import java.util.List;

/** The service the console tests export, refer and invoke. */
public interface Greeter {
    String greet(String name);

    Person find(long id, List<String> tags);

    void fail(String reason);

    /** A value with fields, so the invoke form has an object skeleton to show. */
    record Person(String name, int age, List<String> tags) {
    }
}
