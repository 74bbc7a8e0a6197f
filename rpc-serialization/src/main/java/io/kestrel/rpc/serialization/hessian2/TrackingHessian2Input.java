package io.kestrel.rpc.serialization.hessian2;

import com.caucho.hessian.io.Hessian2Input;
import io.kestrel.rpc.api.serialization.DecodeBudget;
import java.io.IOException;

/**
 * A {@link Hessian2Input} that counts every value read through {@code readObject} (which hessian's
 * deserializers use for every element, map key and value, and object field) against the decode budget
 * of the current read: one level of depth while it is read, one value, and the deadline. An object's
 * first instance, which follows its class definition, is counted twice (hessian reads it with a second
 * {@code readObject}); that only makes the depth limit a little stricter. Not thread-safe.
 */
final class TrackingHessian2Input extends Hessian2Input {
    @Override
    public Object readObject() throws IOException {
        DecodeBudget budget = LengthBudget.decodeBudget();
        budget.enter();
        budget.element();
        Object value = super.readObject();
        budget.exit();
        return value;
    }

    @Override
    public Object readObject(Class cl) throws IOException {
        DecodeBudget budget = LengthBudget.decodeBudget();
        budget.enter();
        budget.element();
        Object value = super.readObject(cl);
        budget.exit();
        return value;
    }
}
