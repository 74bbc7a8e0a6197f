package io.kestrel.rpc.perf.report;

import io.kestrel.rpc.perf.compare.system.BenchSystems;
import io.kestrel.rpc.perf.support.Encodings;
import io.kestrel.rpc.perf.support.Workload;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Serialized sizes of the benchmark's values per serialization (with the DemoOptimizer
 * registrations, and for kryo and fst also without), plus the JSON the REST baselines send. Each
 * value is also read back; a cell is marked with "!" if it did not come back equal.
 *
 * @param columns encoding labels
 * @param rows value labels
 * @param cells {@code cells[row][column]}: byte count, "n/a" (not installed) or an error
 */
public record SerializedSizes(List<String> columns, List<String> rows, String[][] cells) {

    /** Measures every value with every available encoding. */
    public static SerializedSizes measure() {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("BidRequest", Workload.BID.argument());
        values.put("BidResponse", Workload.BID.expectedResult());
        values.put("String (50,000 chars)", Workload.ECHO_50K.argument());
        values.put("long (exists id)", Workload.EXISTS.argument());
        values.put("boolean", Workload.EXISTS.expectedResult());

        record Encoding(String label, String name, boolean optimized) {
        }
        List<Encoding> encodings = new ArrayList<>();
        for (String s : BenchSystems.SERIALIZATIONS) {
            encodings.add(new Encoding(s, s, true));
            if (s.equals("kryo") || s.equals("fst")) {
                encodings.add(new Encoding(s + " (no optimizer)", s, false));
            }
        }
        encodings.add(new Encoding("json (REST body)", Encodings.JSON_REST, false));

        String[][] cells = new String[values.size()][encodings.size()];
        int r = 0;
        for (Map.Entry<String, Object> v : values.entrySet()) {
            for (int c = 0; c < encodings.size(); c++) {
                Encoding e = encodings.get(c);
                if (!Encodings.isAvailable(e.name())) {
                    cells[r][c] = "n/a";
                    continue;
                }
                try {
                    byte[] bytes = Encodings.encode(e.name(), e.optimized(), v.getValue());
                    Object back = Encodings.decode(e.name(), e.optimized(), bytes, v.getValue().getClass());
                    cells[r][c] = bytes.length + (Objects.equals(back, v.getValue()) ? "" : " !");
                } catch (RuntimeException | LinkageError ex) {
                    cells[r][c] = "error: " + ex.getClass().getSimpleName();
                }
            }
            r++;
        }
        return new SerializedSizes(encodings.stream().map(Encoding::label).toList(), List.copyOf(values.keySet()),
                cells);
    }
}
