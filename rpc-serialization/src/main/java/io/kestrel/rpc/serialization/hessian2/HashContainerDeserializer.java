package io.kestrel.rpc.serialization.hessian2;

import com.caucho.hessian.io.AbstractHessianInput;
import com.caucho.hessian.io.Deserializer;
import io.kestrel.rpc.api.serialization.DecodeBudget;
import io.kestrel.rpc.serialization.internal.HashCost;
import java.io.IOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Hashtable;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads hessian's hash-based sets (typed lists) and maps with the same loop as hessian's own
 * {@code CollectionDeserializer} and {@code MapDeserializer} (so the wire format is unchanged), plus
 * the decode budget of the current read ({@link LengthBudget#decodeBudget()}): the container counts as
 * one level of hash nesting, and each element or key is charged its {@link HashCost} before it is
 * inserted. Anything else (reading the container as an object, its type) is passed to hessian's own
 * deserializer.
 */
final class HashContainerDeserializer extends ForwardingDeserializer {
    private final Class<?> created;

    private HashContainerDeserializer(Deserializer delegate, Class<?> created) {
        super(delegate);
        this.created = created;
    }

    /** Wraps hessian's deserializer for {@code type} if it is a hash-based set or map (or Set/Map itself). */
    static Deserializer wrap(Class<?> type, Deserializer delegate) {
        if (delegate == null || type == null) {
            return delegate;
        }
        Class<?> created = null;
        if (type == Map.class || type == HashMap.class) {
            created = HashMap.class;
        } else if (type == LinkedHashMap.class || type == Hashtable.class || type == ConcurrentHashMap.class
                || type == HashSet.class || type == LinkedHashSet.class) {
            created = type;
        } else if (type == Set.class) {
            created = HashSet.class;
        }
        return created == null ? delegate : new HashContainerDeserializer(delegate, created);
    }

    private Object create() throws IOException {
        try {
            return created.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IOException("cannot create a " + created.getName(), e);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    @Override
    public Object readMap(AbstractHessianInput in) throws IOException {
        if (!Map.class.isAssignableFrom(created)) {
            return delegate.readMap(in);
        }
        DecodeBudget budget = LengthBudget.decodeBudget();
        Map map = (Map) create();
        in.addRef(map);
        budget.enterHashed();
        while (!in.isEnd()) {
            Object key = in.readObject();
            HashCost.charge(budget, key);
            map.put(key, in.readObject());
        }
        in.readEnd();
        budget.exitHashed();
        return map;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    @Override
    public Object readList(AbstractHessianInput in, int length) throws IOException {
        if (!Collection.class.isAssignableFrom(created)) {
            return delegate.readList(in, length);
        }
        DecodeBudget budget = LengthBudget.decodeBudget();
        Collection set = (Collection) create();
        in.addRef(set);
        budget.enterHashed();
        while (!in.isEnd()) {
            Object element = in.readObject();
            HashCost.charge(budget, element);
            set.add(element);
        }
        in.readEnd();
        budget.exitHashed();
        return set;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    @Override
    public Object readLengthList(AbstractHessianInput in, int length) throws IOException {
        if (!Collection.class.isAssignableFrom(created)) {
            return delegate.readLengthList(in, length);
        }
        DecodeBudget budget = LengthBudget.decodeBudget();
        Collection set = (Collection) create();
        in.addRef(set);
        budget.enterHashed();
        for (int i = 0; i < length; i++) {
            Object element = in.readObject();
            HashCost.charge(budget, element);
            set.add(element);
        }
        budget.exitHashed();
        return set;
    }

    @Override
    public String toString() {
        return "HashContainer[" + created.getSimpleName() + ", " + delegate + "]";
    }
}
