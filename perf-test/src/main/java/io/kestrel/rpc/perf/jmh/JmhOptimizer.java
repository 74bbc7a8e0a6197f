package io.kestrel.rpc.perf.jmh;

import io.kestrel.rpc.api.serialization.SerializationOptimizer;
import io.kestrel.rpc.demo.DemoOptimizer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** The {@link DemoOptimizer} classes followed by the JMH-only shapes, in a stable order. */
public class JmhOptimizer implements SerializationOptimizer {
    private static final List<Class<?>> CLASSES;

    static {
        List<Class<?>> all = new ArrayList<>(new DemoOptimizer().getSerializableClasses());
        all.addAll(List.of(FlatDto.class, Order.class, OrderLine.class, OrderStatus.class));
        CLASSES = List.copyOf(all);
    }

    public JmhOptimizer() {
    }

    @Override
    public Collection<Class<?>> getSerializableClasses() {
        return CLASSES;
    }
}
