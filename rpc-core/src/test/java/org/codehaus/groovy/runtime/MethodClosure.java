package org.codehaus.groovy.runtime;

import io.kestrel.rpc.core.reliability.GadgetTrips;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;

/**
 * TEST STAND-IN, harmless: it only has the name of Groovy's MethodClosure (the
 * classic deserialization gadget) and counts its instantiations in {@link GadgetTrips}.
 */
public class MethodClosure implements Serializable {
    private static final long serialVersionUID = 1L;
    private String methodName = "exec";
    private String argument = "calc";

    public MethodClosure() {
        GadgetTrips.trip();
    }

    public String getMethodName() {
        return methodName;
    }

    public void setMethodName(String methodName) {
        GadgetTrips.trip();
        this.methodName = methodName;
    }

    public String getArgument() {
        return argument;
    }

    public void setArgument(String argument) {
        GadgetTrips.trip();
        this.argument = argument;
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        GadgetTrips.trip();
        in.defaultReadObject();
    }

    private Object readResolve() {
        GadgetTrips.trip();
        return this;
    }
}
