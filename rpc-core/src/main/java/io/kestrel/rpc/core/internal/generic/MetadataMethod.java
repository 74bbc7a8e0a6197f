package io.kestrel.rpc.core.internal.generic;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.generic.GenericService;
import io.kestrel.rpc.transport.spi.IncomingCall;
import io.kestrel.rpc.transport.spi.MethodRef;

/**
 * A service's reserved {@code $metadata()}: answers the service's description as a plain tree (the
 * {@link io.kestrel.rpc.api.generic.ServiceMetadata} record's), built once at export.
 */
public final class MetadataMethod extends ReservedMethod {
    /** The descriptor suffix of the reserved method, after {@code service#}. */
    public static final String SIGNATURE = "$metadata()";
    private static final Class<?>[] PARAMETERS = new Class<?>[0];

    private final String displayName;
    private final Object tree;

    public MetadataMethod(ServiceKey service, io.kestrel.rpc.api.generic.ServiceMetadata metadata, ServiceGate gate) {
        super(gate);
        this.displayName = service + "#$metadata";
        this.tree = TreeWriter.write(metadata);
    }

    /** The descriptor consumers send for {@code service}'s metadata. */
    public static String descriptor(ServiceKey service) {
        return service + "#" + SIGNATURE;
    }

    /** The wire reference of the reserved method. */
    public static MethodRef ref(ServiceKey service) {
        try {
            return new MethodRef(service, GenericService.class.getMethod("$metadata"));
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String displayName() {
        return displayName;
    }

    @Override
    public Class<?>[] parameterTypes() {
        return PARAMETERS;
    }

    @Override
    public Object invoke(Object[] arguments, IncomingCall call) {
        return tree;
    }
}
