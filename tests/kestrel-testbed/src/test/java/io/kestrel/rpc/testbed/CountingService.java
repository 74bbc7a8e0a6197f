package io.kestrel.rpc.testbed;

/** The service of the bed: each call carries a unique id, which the provider records before it answers. */
public interface CountingService {
    /** Records {@code callId} as run on this provider; returns the provider's name. */
    String call(String callId);
}
