package org.apache.commons.beanutils;

import io.kestrel.rpc.core.reliability.GadgetTrips;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.util.Comparator;

/**
 * TEST STAND-IN, harmless: it only has the name of commons-beanutils' BeanComparator (the
 * comparator of the PriorityQueue gadget chain) and counts its instantiations in {@link GadgetTrips}.
 */
public class BeanComparator implements Comparator<Object>, Serializable {
    private static final long serialVersionUID = 1L;
    private String property = "outputProperties";

    public BeanComparator() {
        GadgetTrips.trip();
    }

    public String getProperty() {
        return property;
    }

    public void setProperty(String property) {
        GadgetTrips.trip();
        this.property = property;
    }

    @Override
    public int compare(Object a, Object b) {
        return String.valueOf(a).compareTo(String.valueOf(b));
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        GadgetTrips.trip();
        in.defaultReadObject();
    }
}
