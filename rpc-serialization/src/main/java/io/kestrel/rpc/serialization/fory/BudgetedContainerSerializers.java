package io.kestrel.rpc.serialization.fory;

import io.kestrel.rpc.api.serialization.DecodeBudget;
import io.kestrel.rpc.serialization.internal.HashCost;
import java.util.AbstractCollection;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.fory.Fory;
import org.apache.fory.context.ReadContext;
import org.apache.fory.resolver.TypeResolver;
import org.apache.fory.serializer.collection.CollectionSerializer;
import org.apache.fory.serializer.collection.MapSerializer;

/**
 * Fory's generic collection and map serializers for the common JDK containers, with the decode budget
 * of the current read ({@code ForySerializer}) applied as fory fills them: each element or entry counts
 * as one value (and the deadline is looked at), a hash-based set or map counts one level of hash
 * nesting, and each of its elements or keys is charged its {@link HashCost} before fory inserts it.
 *
 * <p>How: fory reads a collection as {@code newCollection}, {@code readElements(collection)},
 * {@code onCollectionRead} (maps likewise); {@code readElements} is handed a thin view whose
 * {@code add}/{@code put} does the accounting and then inserts into the real container, which fory
 * created and registered for references as usual. Fory writes the same bytes for these types through
 * its generic serializers as through its specialised ones, so the wire format does not change. They
 * are created without fory's code-generation hook, so JIT-generated object serializers call them
 * rather than inlining an element loop that would bypass the accounting.
 */
final class BudgetedContainerSerializers {
    private static final Class<?>[] SETS = {HashSet.class, LinkedHashSet.class};
    private static final Class<?>[] LISTS = {ArrayList.class, LinkedList.class};
    private static final Class<?>[] MAPS = {HashMap.class, LinkedHashMap.class};

    private BudgetedContainerSerializers() {
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    static void register(Fory fory, Supplier<DecodeBudget> budget) {
        for (Class c : SETS) {
            fory.registerSerializer(c, r -> new Budgeted(r, c, budget, true));
        }
        for (Class c : LISTS) {
            fory.registerSerializer(c, r -> new Budgeted(r, c, budget, false));
        }
        for (Class c : MAPS) {
            fory.registerSerializer(c, r -> new BudgetedMap(r, c, budget));
        }
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    static final class Budgeted<T extends Collection> extends CollectionSerializer<T> {
        private final Supplier<DecodeBudget> budget;
        private final boolean hashed;

        Budgeted(TypeResolver resolver, Class<T> type, Supplier<DecodeBudget> budget, boolean hashed) {
            super(resolver, type, false);
            this.budget = budget;
            this.hashed = hashed;
        }

        @Override
        public Collection newCollection(ReadContext context, boolean hasGenerics) {
            Collection c = super.newCollection(context, hasGenerics);
            DecodeBudget b = budget.get();
            b.enter();
            if (hashed) {
                b.enterHashed();
            }
            return c;
        }

        @Override
        protected void readElements(ReadContext context, Collection collection, int numElements) {
            super.readElements(context, new Counting(collection, budget.get(), hashed), numElements);
        }

        @Override
        public T onCollectionRead(Collection collection) {
            DecodeBudget b = budget.get();
            if (hashed) {
                b.exitHashed();
            }
            b.exit();
            return super.onCollectionRead(collection);
        }
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    static final class BudgetedMap<T extends Map> extends MapSerializer<T> {
        private final Supplier<DecodeBudget> budget;

        BudgetedMap(TypeResolver resolver, Class<T> type, Supplier<DecodeBudget> budget) {
            super(resolver, type, false);
            this.budget = budget;
        }

        @Override
        public Map newMap(ReadContext context, boolean hasGenerics) {
            Map m = super.newMap(context, hasGenerics);
            DecodeBudget b = budget.get();
            b.enter();
            b.enterHashed();
            return m;
        }

        @Override
        public void readElements(ReadContext context, int size, Map map) {
            super.readElements(context, size, new CountingMap(map, budget.get()));
        }

        @Override
        public T onMapRead(Map map) {
            DecodeBudget b = budget.get();
            b.exitHashed();
            b.exit();
            return super.onMapRead(map);
        }
    }

    /** The view fory fills: counts each element and costs its hash before inserting it. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static final class Counting extends AbstractCollection {
        private final Collection target;
        private final DecodeBudget budget;
        private final boolean hashed;

        Counting(Collection target, DecodeBudget budget, boolean hashed) {
            this.target = target;
            this.budget = budget;
            this.hashed = hashed;
        }

        @Override
        public boolean add(Object e) {
            budget.element();
            if (hashed) {
                HashCost.charge(budget, e);
            }
            return target.add(e);
        }

        @Override
        public Iterator iterator() {
            return target.iterator();
        }

        @Override
        public int size() {
            return target.size();
        }
    }

    /** The view fory fills: counts each entry and costs its key's hash before inserting it. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static final class CountingMap extends AbstractMap {
        private final Map target;
        private final DecodeBudget budget;

        CountingMap(Map target, DecodeBudget budget) {
            this.target = target;
            this.budget = budget;
        }

        @Override
        public Object put(Object key, Object value) {
            budget.element();
            HashCost.charge(budget, key);
            return target.put(key, value);
        }

        @Override
        public Set entrySet() {
            return target.entrySet();
        }

        @Override
        public int size() {
            return target.size();
        }
    }
}
