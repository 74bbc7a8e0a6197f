package io.kestrel.rpc.perf.jmh;

import java.io.Serializable;
import java.util.Arrays;

/** The classic flat shape: 2 longs and 16 doubles, no references. Mutable bean. */
public class FlatDto implements Serializable {
    private static final long serialVersionUID = 1L;

    private long id;
    private long timestamp;
    private double d0;
    private double d1;
    private double d2;
    private double d3;
    private double d4;
    private double d5;
    private double d6;
    private double d7;
    private double d8;
    private double d9;
    private double d10;
    private double d11;
    private double d12;
    private double d13;
    private double d14;
    private double d15;

    public FlatDto() {
    }

    /**
     * A deterministic instance with distinct, non-round values. (No -0.0: hessian2 and fastjson2
     * read it back as 0.0.)
     */
    public static FlatDto sample() {
        FlatDto f = new FlatDto();
        f.id = 9_007_199_254_740_993L;
        f.timestamp = 1_714_564_800_123L;
        f.setValues(new double[] {1.5, -2.25, 3.125, 1e-9, 6.02214076e23, 0.1, 0.2, 0.3, 42.0, -7.5, 3.14159,
            2.71828, 1.41421, 1.73205, 123456.789, 9.81});
        return f;
    }

    /** The 16 doubles in order. */
    public double[] values() {
        return new double[] {d0, d1, d2, d3, d4, d5, d6, d7, d8, d9, d10, d11, d12, d13, d14, d15};
    }

    private void setValues(double[] v) {
        d0 = v[0];
        d1 = v[1];
        d2 = v[2];
        d3 = v[3];
        d4 = v[4];
        d5 = v[5];
        d6 = v[6];
        d7 = v[7];
        d8 = v[8];
        d9 = v[9];
        d10 = v[10];
        d11 = v[11];
        d12 = v[12];
        d13 = v[13];
        d14 = v[14];
        d15 = v[15];
    }

    public long getId() {
        return id;
    }

    public void setId(long id) {
        this.id = id;
    }

    public long getTimestamp() {
        return timestamp;
    }

    public void setTimestamp(long timestamp) {
        this.timestamp = timestamp;
    }

    public double getD0() {
        return d0;
    }

    public void setD0(double d0) {
        this.d0 = d0;
    }

    public double getD1() {
        return d1;
    }

    public void setD1(double d1) {
        this.d1 = d1;
    }

    public double getD2() {
        return d2;
    }

    public void setD2(double d2) {
        this.d2 = d2;
    }

    public double getD3() {
        return d3;
    }

    public void setD3(double d3) {
        this.d3 = d3;
    }

    public double getD4() {
        return d4;
    }

    public void setD4(double d4) {
        this.d4 = d4;
    }

    public double getD5() {
        return d5;
    }

    public void setD5(double d5) {
        this.d5 = d5;
    }

    public double getD6() {
        return d6;
    }

    public void setD6(double d6) {
        this.d6 = d6;
    }

    public double getD7() {
        return d7;
    }

    public void setD7(double d7) {
        this.d7 = d7;
    }

    public double getD8() {
        return d8;
    }

    public void setD8(double d8) {
        this.d8 = d8;
    }

    public double getD9() {
        return d9;
    }

    public void setD9(double d9) {
        this.d9 = d9;
    }

    public double getD10() {
        return d10;
    }

    public void setD10(double d10) {
        this.d10 = d10;
    }

    public double getD11() {
        return d11;
    }

    public void setD11(double d11) {
        this.d11 = d11;
    }

    public double getD12() {
        return d12;
    }

    public void setD12(double d12) {
        this.d12 = d12;
    }

    public double getD13() {
        return d13;
    }

    public void setD13(double d13) {
        this.d13 = d13;
    }

    public double getD14() {
        return d14;
    }

    public void setD14(double d14) {
        this.d14 = d14;
    }

    public double getD15() {
        return d15;
    }

    public void setD15(double d15) {
        this.d15 = d15;
    }

    @Override
    public boolean equals(Object o) {
        // compare bit patterns so that -0.0 and NaN behave like Double.equals
        return o instanceof FlatDto f && id == f.id && timestamp == f.timestamp
                && Arrays.equals(values(), f.values());
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Long.hashCode(id) + Long.hashCode(timestamp)) + Arrays.hashCode(values());
    }

    @Override
    public String toString() {
        return "FlatDto{id=" + id + ", timestamp=" + timestamp + ", values=" + Arrays.toString(values()) + "}";
    }
}
