package io.github.leanscrape.recording;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Method;
import java.util.Map;

import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * Read access to an observation context's low-cardinality key values without a copy:
 * {@link Observation.Context#getLowCardinalityKeyValues()} copies and sorts them on every
 * call; the context's private map answers a size and a lookup without allocating.
 * <p>
 * The map is read only where that gives the same key values as the public method: the
 * field exists with the expected type (checked once) and the context's class does not
 * override the public accessors. Otherwise {@link #lowCardinality} answers {@code null}.
 *
 * @author leanscrape
 */
public final class ContextKeyValues {

	/** The private field of {@code Observation.Context} that holds the key values. */
	static final String LOW_CARDINALITY_FIELD = "lowCardinalityKeyValues";

	private static final @Nullable VarHandle LOW_CARDINALITY = lowCardinalityHandle();

	/**
	 * Whether a context class leaves the key value accessors as
	 * {@code Observation.Context} defines them.
	 */
	private static final ClassValue<Boolean> PLAIN_ACCESSORS = new ClassValue<>() {

		@Override
		protected Boolean computeValue(Class<?> type) {
			return declaredByContext(type, "getLowCardinalityKeyValues")
					&& declaredByContext(type, "getLowCardinalityKeyValue", String.class)
					&& declaredByContext(type, "addLowCardinalityKeyValue", KeyValue.class)
					&& declaredByContext(type, "removeLowCardinalityKeyValue", String.class);
		}

	};

	private ContextKeyValues() {
	}

	/**
	 * Return whether the map can be read in this runtime.
	 * @return whether {@link #lowCardinality} may answer a map
	 */
	public static boolean isAvailable() {
		return LOW_CARDINALITY != null;
	}

	/**
	 * Return the context's own map of low-cardinality key values, by key, or {@code null}
	 * if it cannot be read as it is for this context.
	 * @param context the observation context
	 * @return the live map, to be read and never modified, or {@code null}
	 */
	@SuppressWarnings("unchecked")
	public static @Nullable Map<String, KeyValue> lowCardinality(Observation.Context context) {
		VarHandle handle = LOW_CARDINALITY;
		if (handle == null || !PLAIN_ACCESSORS.get(context.getClass())) {
			return null;
		}
		return (Map<String, KeyValue>) handle.get(context);
	}

	private static boolean declaredByContext(Class<?> type, String name, Class<?>... parameterTypes) {
		try {
			Method method = type.getMethod(name, parameterTypes);
			return method.getDeclaringClass() == Observation.Context.class;
		}
		catch (NoSuchMethodException | LinkageError ex) {
			// A native image without reflection metadata for this context class: the
			// public copy is read instead.
			return false;
		}
	}

	private static @Nullable VarHandle lowCardinalityHandle() {
		try {
			VarHandle handle = MethodHandles.privateLookupIn(Observation.Context.class, MethodHandles.lookup())
				.findVarHandle(Observation.Context.class, LOW_CARDINALITY_FIELD, Map.class);
			return holdsWhatIsAdded(handle) ? handle : null;
		}
		catch (ReflectiveOperationException | RuntimeException | LinkageError ex) {
			// A LinkageError too: a native image without the reflection hint throws one.
			return null;
		}
	}

	/**
	 * Check that the field is the map the public methods read and write.
	 * @param handle the handle on the field
	 * @return whether the field holds the key values added through the public methods
	 */
	private static boolean holdsWhatIsAdded(VarHandle handle) {
		Observation.Context context = new Observation.Context();
		KeyValue first = KeyValue.of("b", "1");
		KeyValue second = KeyValue.of("a", "2");
		context.addLowCardinalityKeyValue(first);
		context.addLowCardinalityKeyValue(second);
		context.addHighCardinalityKeyValue(KeyValue.of("c", "3"));
		Object map = handle.get(context);
		if (!(map instanceof Map<?, ?> keyValues) || keyValues.size() != 2 || keyValues.get("b") != first
				|| keyValues.get("a") != second) {
			return false;
		}
		context.removeLowCardinalityKeyValue("b");
		return keyValues.size() == 1 && keyValues.get("b") == null;
	}

}
