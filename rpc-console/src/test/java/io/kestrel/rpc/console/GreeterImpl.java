package io.kestrel.rpc.console;

import java.util.List;

public final class GreeterImpl implements Greeter {
    @Override
    public String greet(String name) {
        return "Hello, " + name;
    }

    @Override
    public Person find(long id, List<String> tags) {
        return new Person("person " + id, (int) id, tags);
    }

    @Override
    public void fail(String reason) {
        throw new IllegalStateException("failed on purpose: " + reason);
    }
}
