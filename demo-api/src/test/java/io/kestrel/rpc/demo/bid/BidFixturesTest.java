package io.kestrel.rpc.demo.bid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.demo.DemoOptimizer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BidFixturesTest {

    @Test
    void fixturesAreDeterministicAndFreshOnEveryCall() {
        BidRequest a = BidFixtures.sampleRequest();
        BidRequest b = BidFixtures.sampleRequest();
        assertNotSame(a, b);
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertEquals(BidFixtures.sampleResponse(), BidFixtures.responseFor(b));
        assertNull(a.getApp());
        assertEquals(a.getId(), BidFixtures.sampleResponse().getId());
        assertEquals(2, BidFixtures.sampleResponse().getSeatBids().get(0).getBids().size());
    }

    @Test
    void sampleRequestSurvivesJavaSerializationAndIsAboutOneToTwoKilobytesAsJson() throws Exception {
        BidRequest request = BidFixtures.sampleRequest();
        assertEquals(request, roundTrip(request));
        assertEquals(BidFixtures.sampleResponse(), roundTrip(BidFixtures.sampleResponse()));
        // toString lists every field; a rough stand-in for a textual encoding's size
        int textual = request.toString().length();
        assertTrue(textual > 1000 && textual < 2500, "toString length " + textual);
    }

    @Test
    void optimizerListsEveryModelClassOnceAndTheyAreSerializable() {
        var classes = new DemoOptimizer().getSerializableClasses();
        assertEquals(classes.size(), Set.copyOf(classes).size());
        assertEquals(20, classes.size());
        for (Class<?> c : classes) {
            assertTrue(Serializable.class.isAssignableFrom(c), c.getName());
        }
    }

    private static Object roundTrip(Object value) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return in.readObject();
        }
    }
}
