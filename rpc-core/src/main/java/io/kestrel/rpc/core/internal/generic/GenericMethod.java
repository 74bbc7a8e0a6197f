package io.kestrel.rpc.core.internal.generic;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.generic.GenericService;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.spi.IncomingCall;
import io.kestrel.rpc.transport.spi.MethodRef;
import io.kestrel.rpc.transport.spi.RefusedException;
import io.kestrel.rpc.transport.spi.ServerMethod;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.stream.Collectors;

/**
 * A service's reserved {@code $invoke(String, String[], Object[])}: picks the exported method by name and
 * parameter type names (only the service interface's own remote methods), converts each argument tree to
 * the declared parameter type ({@link TreeReader}), runs the method as an ordinary call of it (its
 * interceptors see the real method and arguments) and answers its result as a tree ({@link TreeWriter}).
 * Type names are compared as text with the declared types' names; no class is ever looked up by a name the
 * caller sent.
 */
public final class GenericMethod extends ReservedMethod {
    /** The descriptor suffix of the reserved method, after {@code service#}. */
    public static final String SIGNATURE = "$invoke(java.lang.String,java.lang.String[],java.lang.Object[])";
    private static final Class<?>[] PARAMETERS = {String.class, String[].class, Object[].class};

    /** One exported method, its reflective handle and the server method that runs it. */
    public record Target(Method method, ServerMethod runner) {
    }

    private final ServiceKey service;
    private final String displayName;
    private final List<Target> targets;
    private final TreeReader reader;
    private final GenericLimits limits;

    /**
     * @param limits what walking one call's trees may cost ({@link GenericLimits}); the call's deadline applies too
     */
    public GenericMethod(ServiceKey service, List<Target> targets, ClassAllowlist allowlist, ServiceGate gate,
            GenericLimits limits) {
        super(gate);
        this.service = service;
        this.displayName = service + "#$invoke";
        this.targets = List.copyOf(targets);
        this.reader = new TreeReader(allowlist);
        this.limits = limits;
    }

    /** The descriptor consumers send for {@code service}'s generic calls. */
    public static String descriptor(ServiceKey service) {
        return service + "#" + SIGNATURE;
    }

    /** The wire reference of the reserved method (one per reference; the connection keys it by identity). */
    public static MethodRef ref(ServiceKey service) {
        try {
            return new MethodRef(service, GenericService.class.getMethod("$invoke", PARAMETERS));
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
    public boolean declares(Throwable t) {
        for (Target target : targets) {
            if (target.runner().declares(t)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Object invoke(Object[] arguments, IncomingCall call) throws Throwable {
        String name = (String) arguments[0];
        String[] types = (String[]) arguments[1];
        Object[] trees = arguments[2] == null ? new Object[0] : (Object[]) arguments[2];
        if (name == null) {
            throw new RefusedException(Status.BAD_REQUEST, "generic call of " + service + " names no method", null);
        }
        Target target = select(name, types, trees.length);
        Method m = target.method();
        String signature = signature(m);
        if (trees.length != m.getParameterCount()) {
            throw new RefusedException(Status.BAD_REQUEST, "generic call of " + service + "#" + signature + " has "
                    + trees.length + " arguments for its " + m.getParameterCount() + " parameters", null);
        }
        Object[] converted = new Object[trees.length];
        Parameter[] parameters = m.getParameters();
        // one walk checks all the trees, another converts them: shared values are counted each time they are reached
        TreeWalk checking = new TreeWalk(limits, call.deadlineNanos());
        TreeWalk converting = new TreeWalk(limits, call.deadlineNanos());
        for (int i = 0; i < trees.length; i++) {
            String where = "argument " + i + " (" + parameters[i].getParameterizedType().getTypeName() + " "
                    + parameters[i].getName() + ")";
            try {
                PlainTree.checked(trees[i], where, checking);
                converted[i] = reader.read(trees[i], parameters[i].getParameterizedType(), where, converting);
            } catch (IllegalArgumentException e) {
                throw new RefusedException(Status.BAD_REQUEST, "generic call of " + service + "#" + signature + ": "
                        + e.getMessage(), e);
            }
        }
        Object result = target.runner().invoke(converted, call);
        long deadline = call.deadlineNanos();
        if (result instanceof CompletionStage<?> stage) {
            return stage.thenApply(v -> tree(v, signature, deadline));
        }
        return tree(result, signature, deadline);
    }

    private Object tree(Object value, String signature, long deadlineNanos) {
        try {
            return TreeWriter.write(value, new TreeWalk(limits, deadlineNanos));
        } catch (IllegalArgumentException e) {
            throw new RefusedException(Status.SERVER_ERROR, "the result of " + service + "#" + signature
                    + " has no tree form for a generic caller: " + e.getMessage(), e);
        }
    }

    private Target select(String name, String[] types, int argumentCount) {
        List<Target> named = targets.stream().filter(t -> t.method().getName().equals(name)).toList();
        if (named.isEmpty()) {
            List<String> names = targets.stream().map(t -> t.method().getName()).distinct().sorted().toList();
            throw new RefusedException(Status.SERVICE_NOT_FOUND, "generic call: service " + service
                    + " has no method '" + PlainTree.excerpt(name) + "'" + PlainTree.suggestion(name, names) + "; its methods: "
                    + signatures(targets), null);
        }
        List<Target> matching = new ArrayList<>();
        for (Target t : named) {
            if (types == null ? t.method().getParameterCount() == argumentCount : matches(t.method(), types)) {
                matching.add(t);
            }
        }
        if (matching.size() == 1) {
            return matching.get(0);
        }
        if (types == null) {
            throw new RefusedException(Status.SERVICE_NOT_FOUND, "generic call of " + service + "#" + name + " with "
                    + argumentCount + " arguments and no parameter types matches " + (matching.isEmpty() ? "none"
                    : matching.size()) + " of its signatures: " + signatures(named)
                    + "; pass the parameter type names to choose one", null);
        }
        throw new RefusedException(Status.SERVICE_NOT_FOUND, "generic call: " + service + "#" + name + " has no"
                + " overload (" + PlainTree.excerpt(String.join(", ", Arrays.asList(types))) + "); its signatures: "
                + signatures(named)
                + " (type names as Class.getName() or getTypeName() write them, e.g. long, java.lang.String,"
                + " com.example.User, java.lang.String[])", null);
    }

    private static boolean matches(Method m, String[] types) {
        Class<?>[] declared = m.getParameterTypes();
        if (declared.length != types.length) {
            return false;
        }
        for (int i = 0; i < declared.length; i++) {
            String t = types[i] == null ? "" : types[i].trim();
            if (!t.equals(declared[i].getName()) && !t.equals(declared[i].getTypeName())) {
                return false;
            }
        }
        return true;
    }

    private static String signatures(List<Target> targets) {
        return targets.stream().map(t -> signature(t.method())).sorted().collect(Collectors.joining(", "));
    }

    static String signature(Method m) {
        return m.getName() + Arrays.stream(m.getParameterTypes()).map(Class::getTypeName)
                .collect(Collectors.joining(", ", "(", ")"));
    }

    /** For tests and the metadata: the targets by signature. */
    Map<String, Target> bySignature() {
        return targets.stream().collect(Collectors.toMap(t -> signature(t.method()), t -> t));
    }
}
