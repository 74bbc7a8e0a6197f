package io.kestrel.rpc.perf.jmh;

import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.perf.support.Encodings;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Serializers alone: nanoseconds to serialize and to deserialize each shape with each codec. The
 * output and input streams are reused, so the figures contain the serializer's own work and
 * allocations only. The encoded size of every shape is checked to read back equal and printed in
 * the setup; {@link JmhMain} writes all sizes to {@code jmh-sizes.csv}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SerializerBenchmark {

    @Param({"kryo", "kryo-noopt", "fst", "hessian2", "fastjson2", "java", "fory", "kryo-compatible", "fory-compatible"})
    public String codec;

    @Param({"bidRequest", "bidResponse", "flatDto", "order1", "order100"})
    public String shape;

    private Serializer serializer;
    private Object value;
    private Class<?> type;
    private ByteArrayOutputStream out;
    private ByteArrayInputStream in;

    @Setup(Level.Trial)
    public void setUp() {
        serializer = Codecs.create(codec);
        value = Shapes.create(shape);
        type = value.getClass();
        byte[] bytes = Encodings.toBytes(serializer, value);
        Object back = serializer.deserialize(new ByteArrayInputStream(bytes), type);
        if (!Objects.equals(value, back)) {
            throw new IllegalStateException(codec + " did not read " + shape + " back equal: " + back);
        }
        System.out.println("# encoded size: " + codec + " " + shape + " = " + bytes.length + " bytes");
        out = new ByteArrayOutputStream(bytes.length * 2);
        in = new ByteArrayInputStream(bytes);
    }

    /** Writes the value into a reused buffer; returns the size so the work cannot be eliminated. */
    @Benchmark
    public int serialize() {
        out.reset();
        serializer.serialize(value, out);
        return out.size();
    }

    /** Reads the value back from its precomputed bytes. */
    @Benchmark
    public Object deserialize() {
        in.reset();
        return serializer.deserialize(in, type);
    }
}
